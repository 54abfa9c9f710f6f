// The upstream's wire shapes normalised into records, across the dialects
// (docs/upstream.md): the spec dialect types `config`, `plugin_info` and
// `delivery_rate_24h` as strings, PostHog sends an object, an object and a number, and leaves
// some fields out of some answers. An answer missing what a record needs is malformed.
import { malformedUpstreamBody } from '../../errors/codes.ts';
import { redactedActivityDetail } from '../secrets/activity.ts';
import { redactedPluginConfig } from '../secrets/plugin-config.ts';
import type {
  ActivityEntryRecord,
  ActivityUserRecord,
  ConfigRecord,
  ConfigSource,
  ImportantChangesRecord,
  ProjectRecord,
} from './records.ts';

type Wire = Record<string, unknown>;

export function asObject(value: unknown): Wire {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformedUpstreamBody();
  return value as Wire;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

export function required<T>(value: T | null): T {
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
    config: redactedPluginConfig(w.config, w.plugin_info),
    error: w.error ?? null,
    teamId: int(w.team_id),
    pluginInfo: w.plugin_info != null || carriesPluginInfo ? (w.plugin_info ?? null) : undefined,
    deliveryRate24h: deliveryRate !== null || carriesRate ? deliveryRate : undefined,
    createdAt: str(w.created_at),
    updatedAt: str(w.updated_at),
  };
}

export function normalizeUser(raw: unknown): ActivityUserRecord | null {
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
  const scope = required(str(w.scope));
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
    scope,
    detail: redactedActivityDetail(scope, w.detail ?? null),
    createdAt: required(str(w.created_at)),
    client: str(w.client),
    credentialType: str(w.credential_type),
  };
}

export function normalizeProject(raw: unknown, projectId?: string): ProjectRecord {
  const w = asObject(raw);
  const id = String(required(int(w.id)));
  return { __typename: 'Project', projectId: projectId ?? id, id, name: str(w.name) };
}

/** important_changes: one entry (interface.md), a list, or PostHog's `{results, last_read}`. */
export function normalizeImportantChanges(raw: unknown, projectId: string): ImportantChangesRecord {
  if (Array.isArray(raw)) return { entries: raw.map((e) => normalizeEntry(e, projectId)), lastRead: null };
  const w = asObject(raw);
  if (Array.isArray(w.results)) {
    return { entries: w.results.map((e) => normalizeEntry(e, projectId)), lastRead: str(w.last_read) };
  }
  return { entries: [normalizeEntry(w, projectId)], lastRead: null };
}
