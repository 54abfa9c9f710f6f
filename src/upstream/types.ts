// The upstream's wire shapes and their normalisation across the two dialects
// (../shared/upstream-notes.md): the spec dialect types `config`, `plugin_info` and
// `delivery_rate_24h` as strings, PostHog sends an object, an object and a number, and leaves
// some fields out of some answers. A record says which fields its answer did not carry
// (`undefined`), so a resolver can fetch them rather than answer a wrong null.
import { malformedUpstreamBody } from './errors.ts';
import { cursorFromLink, offsetFromLink } from './links.ts';
import { type ScannedPage, scanPage } from './page-scan.ts';

/** Which operation a config came from; it decides which fields the answer carries. */
export type ConfigSource = 'list' | 'retrieve' | 'write' | 'rearrange' | 'frontend';

export interface ProjectRecord {
  readonly __typename: 'Project';
  /** As the caller addressed it: an integer id or `@current`. */
  projectId: string;
  /** The numeric id, once an answer about the project carried it (what `@current` stands for). */
  id?: string;
  /** undefined until an answer about the project carried it. */
  name?: string | null;
}

export interface ConfigRecord {
  readonly __typename: 'DestinationConfig';
  /** The project as addressed in the path the config was read through. */
  projectId: string;
  databaseId: number;
  plugin: number;
  enabled: boolean;
  order: number;
  name: string | null;
  description: string | null;
  deleted: boolean;
  filters: unknown;
  config: unknown;
  error: unknown;
  teamId: number | null;
  /** undefined: this answer did not carry it (PostHog's list and rearrange answers). */
  pluginInfo: unknown;
  /** undefined: this answer did not carry it (PostHog has it on list and retrieve only). */
  deliveryRate24h: number | null | undefined;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface ActivityUserRecord {
  id: number | null;
  uuid: string | null;
  distinctId: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  isEmailVerified: boolean | null;
  hedgehogConfig: unknown;
}

export interface ActivityEntryRecord {
  readonly __typename: 'ActivityLogEntry';
  projectId: string;
  id: string;
  user: ActivityUserRecord | null;
  unread: boolean;
  organizationId: string | null;
  wasImpersonated: boolean | null;
  isSystem: boolean | null;
  activity: string;
  itemId: string | null;
  scope: string;
  detail: unknown;
  createdAt: string;
}

export interface OffsetPage<T> {
  count: number;
  results: T[];
  /** Read from the `next` link's offset; null when there is no next page. */
  nextOffset: number | null;
}

/**
 * A page of a cursor list, over its scanned answer: entries are located as far as they are asked
 * for, and an entry is parsed and normalised when first read. The upstream sends 100 a page and a
 * screen usually shows a few; parsing and normalising them all was most of the garbage a combined
 * view made (npm run bench). A request's loaders hold its pages until it ends, so what a page
 * holds is the answer's bytes (outside the JS heap) and the entries read, not 100 parsed entries
 * surviving every young-generation GC.
 */
export class CursorPage<T> {
  private readonly items: (T | undefined)[] = [];

  constructor(
    private readonly scanned: ScannedPage,
    private readonly normalize: (raw: unknown) => T,
    /** Read from the `next` link's cursor; null when there is no next page. */
    readonly nextCursor: string | null,
    /** Read from the `previous` link's cursor; null when this is the first page. */
    readonly previousCursor: string | null,
  ) {}

  /** Whether the page has an entry at `index`; cheaper than `size` for a walk from the top. */
  has(index: number): boolean {
    return this.scanned.has(index);
  }

  /** How many entries the page holds (the whole answer is scanned). */
  get size(): number {
    return this.scanned.size;
  }

  /** The entry at `index` (has(index) is true). */
  at(index: number): T {
    let item = this.items[index];
    if (item === undefined) {
      item = this.normalize(this.scanned.entry(index));
      this.items[index] = item;
    }
    return item;
  }
}

type Wire = Record<string, unknown>;

function asObject(value: unknown): Wire {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformedUpstreamBody();
  return value as Wire;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

function required<T>(value: T | null): T {
  if (value === null) throw malformedUpstreamBody();
  return value;
}

/** A number in [0, 1]; the spec dialect sends it as a numeric string. */
function rate(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

export function normalizeConfig(raw: unknown, projectId: string, source: ConfigSource): ConfigRecord {
  const w = asObject(raw);
  const carriesPluginInfo = source === 'retrieve' || source === 'write' || source === 'frontend';
  const carriesRate = source === 'list' || source === 'retrieve';
  const deliveryRate = rate(w.delivery_rate_24h);
  return {
    __typename: 'DestinationConfig',
    projectId,
    databaseId: required(int(w.id)),
    plugin: required(int(w.plugin)),
    enabled: bool(w.enabled) ?? false,
    order: int(w.order) ?? 0,
    name: str(w.name),
    description: str(w.description),
    deleted: bool(w.deleted) ?? false,
    filters: w.filters ?? null,
    config: w.config ?? null,
    error: w.error ?? null,
    teamId: int(w.team_id),
    pluginInfo: w.plugin_info != null || carriesPluginInfo ? (w.plugin_info ?? null) : undefined,
    deliveryRate24h: deliveryRate !== null || carriesRate ? deliveryRate : undefined,
    createdAt: str(w.created_at),
    updatedAt: str(w.updated_at),
  };
}

function normalizeUser(raw: unknown): ActivityUserRecord | null {
  if (raw === null || raw === undefined) return null;
  const w = asObject(raw);
  return {
    id: int(w.id),
    uuid: str(w.uuid),
    distinctId: str(w.distinct_id),
    firstName: str(w.first_name),
    lastName: str(w.last_name),
    email: str(w.email),
    isEmailVerified: bool(w.is_email_verified),
    hedgehogConfig: w.hedgehog_config ?? null,
  };
}

export function normalizeEntry(raw: unknown, projectId: string): ActivityEntryRecord {
  const w = asObject(raw);
  return {
    __typename: 'ActivityLogEntry',
    projectId,
    id: required(str(w.id)),
    user: normalizeUser(w.user),
    unread: bool(w.unread) ?? false,
    organizationId: str(w.organization_id),
    wasImpersonated: bool(w.was_impersonated),
    isSystem: bool(w.is_system),
    activity: required(str(w.activity)),
    itemId: w.item_id === null || w.item_id === undefined ? null : String(w.item_id),
    scope: required(str(w.scope)),
    detail: w.detail ?? null,
    createdAt: required(str(w.created_at)),
  };
}

export function normalizeProject(raw: unknown, projectId?: string): ProjectRecord {
  const w = asObject(raw);
  const id = String(required(int(w.id)));
  return { __typename: 'Project', projectId: projectId ?? id, id, name: str(w.name) };
}

export function normalizeOffsetPage<T>(raw: unknown, item: (raw: unknown) => T): OffsetPage<T> {
  const w = asObject(raw);
  if (!Array.isArray(w.results)) throw malformedUpstreamBody();
  return {
    count: int(w.count) ?? w.results.length,
    results: w.results.map(item),
    nextOffset: offsetFromLink(w.next)?.offset ?? null,
  };
}

/** A cursor page from its answer's bytes (read with `parseAnswer: false`). */
export function normalizeCursorPage<T>(
  answer: { chunks: readonly Buffer[] },
  item: (raw: unknown) => T,
): CursorPage<T> {
  const scanned = scanPage(answer.chunks, ['next', 'previous']);
  if (!scanned.hasEntries) throw malformedUpstreamBody();
  const { next, previous } = scanned.members;
  return new CursorPage(scanned, item, cursorFromLink(next), cursorFromLink(previous));
}

/** important_changes: one entry (interface.md), a list, or PostHog's `{results, last_read}`. */
export function normalizeImportantChanges(raw: unknown, projectId: string) {
  if (Array.isArray(raw)) return { entries: raw.map((e) => normalizeEntry(e, projectId)), lastRead: null };
  const w = asObject(raw);
  if (Array.isArray(w.results)) {
    return { entries: w.results.map((e) => normalizeEntry(e, projectId)), lastRead: str(w.last_read) };
  }
  return { entries: [normalizeEntry(w, projectId)], lastRead: null };
}
