// The upstream's wire shapes and their normalisation across the two dialects
// (../shared/upstream-notes.md): the spec dialect types `config`, `plugin_info` and
// `delivery_rate_24h` as strings, PostHog sends an object, an object and a number, and leaves
// some fields out of some answers. A record says which fields its answer did not carry
// (`undefined`), so a resolver can fetch them rather than answer a wrong null.
import { malformedUpstreamBody } from '../errors/codes.ts';
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

/**
 * A page answer's entries over its scanned bytes (page-scan.ts): located as far as they are asked
 * for, parsed and normalised when first read. The upstream sends up to 100 a page; a screen
 * usually shows a few, and a cross-link reads the few configs it names from a list page. Parsing
 * and normalising them all was most of the garbage a combined view and an activity page made
 * (npm run bench). A request's loaders hold its pages until it ends, so what a page holds is the
 * answer's bytes (outside the JS heap) and the entries read, not every parsed entry surviving
 * each young-generation GC.
 */
class PageEntries<T> {
  private readonly items: (T | undefined)[] = [];
  /** `head` has read every entry below this (or all the page holds). */
  private readAhead = 0;

  constructor(
    private readonly scanned: ScannedPage,
    private readonly normalize: (raw: unknown) => T,
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

  /** Whether the entry at `index` was read (parsed and normalised) already. */
  isRead(index: number): boolean {
    return this.items[index] !== undefined;
  }

  /**
   * The first `count` entries (fewer if the page holds fewer), for a connection that shows them
   * all: the answer parsed whole, in one JSON.parse, where reading each entry from the scan cost
   * half again as much (each located entry decoded and parsed alone, 100 times over). An answer
   * JSON.parse refuses is read entry by entry instead: the entries before a bad one are read and
   * the bad one fails where it is, as `at` would.
   */
  head(count: number): T[] {
    if (count > this.readAhead) {
      const all = this.scanned.parseEntries();
      if (all === undefined) return this.walk(count);
      const length = Math.min(count, all.length);
      for (let i = 0; i < length; i++) this.items[i] ??= this.normalize(all[i]);
      this.readAhead = count;
    }
    return this.items.slice(0, count) as T[];
  }

  /** The first `count` entries, each located and parsed alone. */
  private walk(count: number): T[] {
    const head: T[] = [];
    for (let i = 0; i < count && this.has(i); i++) head.push(this.at(i));
    return head;
  }

  /** Member `name` of the entry at `index` as the upstream sent it, the entry left unparsed. */
  member(index: number, name: string): unknown {
    return this.scanned.member(index, name);
  }
}

/** A page of a cursor list (the activity log). */
export class CursorPage<T> extends PageEntries<T> {
  constructor(
    scanned: ScannedPage,
    normalize: (raw: unknown) => T,
    /** Read from the `next` link's cursor; null when there is no next page. */
    readonly nextCursor: string | null,
    /** Read from the `previous` link's cursor; null when this is the first page. */
    readonly previousCursor: string | null,
  ) {
    super(scanned, normalize);
  }
}

/** A page of a limit/offset list (configs, projects). */
export class OffsetPage<T> extends PageEntries<T> {
  constructor(
    scanned: ScannedPage,
    normalize: (raw: unknown) => T,
    /** How many the whole list holds: the upstream's `count`, else this page's size. */
    readonly count: number,
    /** Read from the `next` link's offset; null when there is no next page. */
    readonly nextOffset: number | null,
  ) {
    super(scanned, normalize);
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

/** A page answer read with `parseAnswer: false`, scanned; one with no `results` array is malformed. */
function scanAnswer(answer: { chunks: readonly Buffer[] }, needed: readonly string[]): ScannedPage {
  const scanned = scanPage(answer.chunks, needed);
  if (!scanned.hasEntries) throw malformedUpstreamBody();
  return scanned;
}

/** An offset page from its answer's bytes. */
export function normalizeOffsetPage<T>(
  answer: { chunks: readonly Buffer[] },
  item: (raw: unknown) => T,
): OffsetPage<T> {
  const scanned = scanAnswer(answer, ['count', 'next']);
  const { count, next } = scanned.members;
  return new OffsetPage(scanned, item, int(count) ?? scanned.size, offsetFromLink(next)?.offset ?? null);
}

/** A cursor page from its answer's bytes. */
export function normalizeCursorPage<T>(
  answer: { chunks: readonly Buffer[] },
  item: (raw: unknown) => T,
): CursorPage<T> {
  const scanned = scanAnswer(answer, ['next', 'previous']);
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
