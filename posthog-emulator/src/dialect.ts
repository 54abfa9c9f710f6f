// What differs between the upstreams the gateway must serve (docs/upstream.md):
// `spec` answers as interface.md says, `posthog` as PostHog's code did in mid-2024, and
// `posthog-2026` as it does in late 2026 (hog functions, the activity log's new paging, the
// legacy routes as they answer now). Every difference in the shape of an answer lives here;
// differences in behaviour are branches in the route handlers that name the dialect.

import type { ActivityEntry, DestinationConfig, Project } from './model.ts';
import type { Store } from './store.ts';

export type Dialect = 'spec' | 'posthog' | 'posthog-2026';
/** The dialects of interface.md's time (mid-2024): what every legacy route is tested against. */
export const DIALECTS: readonly Dialect[] = ['spec', 'posthog'];
/** Every dialect the reference upstream answers in. */
export const ALL_DIALECTS: readonly Dialect[] = ['spec', 'posthog', 'posthog-2026'];

/** PostHog's own code, then or now (not the interface document). */
export const isPosthog = (dialect: Dialect) => dialect !== 'spec';

export const SECRET_MASK = '**************** POSTHOG SECRET FIELD ****************';

/**
 * Which operation a config is serialized for. PostHog fills `plugin_info` only on
 * retrieve/create/update, and `delivery_rate_24h` only on list and retrieve.
 */
export type ConfigView = 'list' | 'retrieve' | 'write' | 'rearrange';

/** DRF's DateTimeField output: ISO 8601 in UTC, microseconds only when there are any, `Z`. */
export function formatTimestamp(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const base = new Date(millis).toISOString().slice(0, 19);
  const fraction = micros % 1_000_000;
  return fraction === 0 ? `${base}Z` : `${base}.${String(fraction).padStart(6, '0')}Z`;
}

export function maskSecrets(store: Store, config: DestinationConfig): Record<string, unknown> {
  const plugin = store.plugins.get(config.plugin);
  const masked: Record<string, unknown> = { ...config.config };
  for (const field of plugin?.config_schema ?? []) {
    if (field.secret && masked[field.key] !== undefined && masked[field.key] !== '')
      masked[field.key] = SECRET_MASK;
  }
  return masked;
}

export function serializeConfig(
  store: Store,
  dialect: Dialect,
  config: DestinationConfig,
  view: ConfigView,
): Record<string, unknown> {
  const plugin = store.plugins.get(config.plugin)!;
  const maskedConfig = maskSecrets(store, config);
  const common = {
    id: config.id,
    plugin: config.plugin,
    enabled: config.enabled,
    order: config.order,
  };
  const tail = {
    created_at: formatTimestamp(config.createdAtMicros),
    updated_at: formatTimestamp(config.updatedAtMicros),
    name: config.name,
    description: config.description,
    deleted: config.deleted,
    filters: config.filters,
  };
  if (dialect === 'spec') {
    return {
      ...common,
      config: JSON.stringify(maskedConfig),
      error: config.error ?? '',
      team_id: config.projectId,
      plugin_info: plugin.name,
      delivery_rate_24h: config.deliveryRate24h === null ? null : config.deliveryRate24h.toFixed(2),
      ...tail,
    };
  }
  const { has_frontend: _, ...pluginInfo } = plugin;
  const answer: Record<string, unknown> = {
    ...common,
    config: maskedConfig,
    // PostHog stores errors elsewhere; the field is always null.
    error: null,
    team_id: config.projectId,
    plugin_info: view === 'retrieve' || view === 'write' ? pluginInfo : null,
    delivery_rate_24h: view === 'list' || view === 'retrieve' ? config.deliveryRate24h : null,
    ...tail,
  };
  if (dialect === 'posthog-2026') {
    // Gone from the serializer since the move to hog functions.
    delete answer.delivery_rate_24h;
    delete answer.filters;
  }
  return answer;
}

export function serializeEntry(store: Store, entry: ActivityEntry, unread: boolean): Record<string, unknown> {
  const user = entry.userId === null ? null : store.users.get(entry.userId)!;
  return {
    id: entry.id,
    user: user && {
      id: user.id,
      uuid: user.uuid,
      distinct_id: user.distinct_id,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      is_email_verified: user.is_email_verified,
      hedgehog_config: user.hedgehog_config,
    },
    unread,
    organization_id: entry.organizationId,
    was_impersonated: entry.was_impersonated,
    is_system: entry.is_system,
    activity: entry.activity,
    item_id: entry.item_id,
    scope: entry.scope,
    detail: entry.detail,
    created_at: formatTimestamp(entry.createdAtMicros),
  };
}

export function serializeProject(store: Store, project: Project): Record<string, unknown> {
  return {
    id: project.id,
    uuid: project.uuid,
    organization: project.organizationId,
    name: project.name,
    organization_name: store.organizations.get(project.organizationId)!.name,
    created_at: formatTimestamp(project.createdAtMicros),
    timezone: 'UTC',
    is_demo: false,
  };
}
