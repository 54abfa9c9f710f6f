// The destination-config endpoints of interface.md, as PostHog answers them in each dialect.
import { notFound, serverError, validationError } from '../http/api-error.ts';
import { config2026, createConfig2026, deleteConfig2026, logConfigUpdate2026 } from './2026.ts';
import type { ConfigView, Dialect } from '../dialect.ts';
import { isPosthog, maskSecrets, serializeConfig } from '../dialect.ts';
import type { ActivityChange, ApiKey, DestinationConfig, Project } from '../model.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { empty, ok, type Reply, type RouteContext } from '../http/reply.ts';
import type { Store } from '../store.ts';
import { configDetail } from '../store.ts';
import { mergeConfig, readWritableFields, type WritableFields } from './validation.ts';

/** PostHog lists live configs by (order, plugin); the spec dialect lists all of them by id. */
function listedConfigs(store: Store, dialect: Dialect, projectId: number): DestinationConfig[] {
  const all = [...store.configs.values()].filter((c) => c.projectId === projectId);
  if (dialect === 'spec') return all.sort((a, b) => a.id - b.id);
  return all
    .filter((c) => !c.deleted)
    .sort((a, b) => a.order - b.order || a.plugin - b.plugin || a.id - b.id);
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.list
export function listConfigs({ store, dialect, project, url }: RouteContext): Reply {
  const page = limitOffsetPage(listedConfigs(store, dialect, project.id), url);
  return ok({ ...page, results: page.results.map((c) => serializeConfig(store, dialect, c, 'list')) });
}

function findConfig(
  store: Store,
  project: Project,
  rawId: string | undefined,
): DestinationConfig | undefined {
  if (!rawId || !/^\d+$/.test(rawId)) return undefined;
  const config = store.configs.get(Number(rawId));
  return config && config.projectId === project.id ? config : undefined;
}

function requireConfig(ctx: RouteContext): DestinationConfig {
  const config = findConfig(ctx.store, ctx.project, ctx.params.id);
  if (!config) throw notFound();
  return config;
}

const view = (ctx: RouteContext, config: DestinationConfig, as: ConfigView) => {
  const answer = serializeConfig(ctx.store, ctx.dialect, config, as);
  return ctx.dialect === 'posthog-2026' ? config2026(ctx.store, answer) : answer;
};

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.retrieve
export function retrieveConfig(ctx: RouteContext): Reply {
  return ok(view(ctx, requireConfig(ctx), 'retrieve'));
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigSerializer.create (2026: config-2026.ts)
export function createConfig(ctx: RouteContext): Reply {
  const { store, dialect, project, key, body } = ctx;
  const fields = readWritableFields(store, dialect, body, false);
  if (dialect === 'posthog-2026') {
    const unsaved = view(ctx, createConfig2026(ctx, fields), 'write');
    return ok({ ...unsaved, id: null, created_at: null, updated_at: null }, 201);
  }
  const config = store.createConfig({
    projectId: project.id,
    plugin: fields.plugin!,
    order: fields.order!,
    enabled: fields.enabled ?? false,
    deleted: fields.deleted ?? false,
    name: fields.name ?? null,
    description: fields.description ?? null,
    filters: fields.filters ?? null,
    config: fields.config ?? {},
    error: null,
    deliveryRate24h: null,
  });
  logConfigActivity(store, key, config, 'created', null);
  return ok(view(ctx, config, 'write'), 201);
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigSerializer.update
export function updateConfig(ctx: RouteContext, partial: boolean): Reply {
  const { store, dialect, key, body } = ctx;
  const config = requireConfig(ctx);
  const fields = readWritableFields(store, dialect, body, partial);
  // PostHog's update pops `plugin`: a config never changes plugin.
  delete fields.plugin;
  if (dialect === 'posthog-2026') return updateConfig2026(ctx, config, fields);
  if (fields.config) fields.config = mergeConfig(store, config, fields.config);
  const changes: ActivityChange[] = [];
  for (const [field, after] of Object.entries(fields) as [keyof typeof fields, unknown][]) {
    const before = config[field];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    const shown = (v: unknown) =>
      field === 'config' ? maskSecrets(store, { ...config, config: v as Record<string, unknown> }) : v;
    changes.push({
      type: 'PluginConfig',
      action: 'changed',
      field,
      before: shown(before),
      after: shown(after),
    });
  }
  Object.assign(config, fields);
  config.updatedAtMicros = store.nowMicros();
  if (changes.length) {
    const onlyEnabled = changes.length === 1 && changes[0]!.field === 'enabled';
    const activity = onlyEnabled ? (config.enabled ? 'enabled' : 'disabled') : 'updated';
    logConfigActivity(store, key, config, activity, changes);
  }
  return ok(view(ctx, config, 'write'));
}

/** PluginConfigSerializer.update as of 2026: deleting disables; only config and enabled changes are logged. */
function updateConfig2026(ctx: RouteContext, config: DestinationConfig, fields: WritableFields): Reply {
  const { store, key } = ctx;
  if (fields.config) fields.config = mergeConfig(store, config, fields.config);
  if (fields.deleted === true) fields.enabled = false;
  const before = { ...config };
  Object.assign(config, fields);
  config.updatedAtMicros = store.nowMicros();
  logConfigUpdate2026(store, key, before, config);
  return ok(view(ctx, config, 'write'));
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.destroy
export function deleteConfig(ctx: RouteContext): Reply {
  const { store, dialect, key, project, params } = ctx;
  const config = findConfig(store, project, params.id);
  if (dialect === 'posthog-2026') return deleteConfig2026(store, config);
  if (isPosthog(dialect)) {
    // PostHog's destroy does PluginConfig.objects.get(): an unknown id is an unhandled 500,
    // and a known one is only disabled.
    if (!config) throw serverError();
    if (config.enabled) {
      config.enabled = false;
      config.updatedAtMicros = store.nowMicros();
      logConfigActivity(store, key, config, 'disabled', [
        { type: 'PluginConfig', action: 'changed', field: 'enabled', before: true, after: false },
      ]);
    }
    return empty(204);
  }
  if (!config) throw notFound();
  store.configs.delete(config.id);
  logConfigActivity(store, key, config, 'deleted', null);
  return empty(204);
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.frontend
export function configFrontend(ctx: RouteContext): Reply {
  const config = requireConfig(ctx);
  if (ctx.dialect === 'spec') return ok(view(ctx, config, 'retrieve'));
  const plugin = ctx.store.plugins.get(config.plugin)!;
  // PostHog serves the transpiled frontend.tsx, or a stub saying there is none.
  const source = plugin.has_frontend
    ? `"use strict";\nexport function getFrontendApp(require) {\n  return { default: function App() { return ${JSON.stringify(plugin.name)} } };\n}\n`
    : 'export function getFrontendApp () { return {"no_frontend": true} }';
  return { status: 200, text: source, contentType: 'application/javascript; charset=UTF-8' };
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.job (gone in 2026)
export function runJob(ctx: RouteContext): Reply {
  const { store, dialect, key, body } = ctx;
  const config = requireConfig(ctx);
  if (dialect === 'spec') {
    logConfigActivity(store, key, config, 'job_triggered', null, { job_type: null, payload: body.data });
    return ok(view(ctx, config, 'write'));
  }
  const job = body.data.job;
  if (job === null || typeof job !== 'object' || Array.isArray(job) || !('type' in job)) {
    throw validationError(null, 'invalid_input', 'The job type must be specified!');
  }
  const {
    type,
    payload = {},
    operation = 'start',
  } = job as { type: unknown; payload?: unknown; operation?: unknown };
  const plugin = store.plugins.get(config.plugin)!;
  if (typeof type !== 'string' || !Object.hasOwn(plugin.public_jobs, type)) {
    throw validationError(
      null,
      'invalid_input',
      `Invalid job type "${String(type)}" for plugin "${plugin.name}"`,
    );
  }
  logConfigActivity(store, key, config, 'job_triggered', null, { job_type: type, payload, operation });
  return empty(200);
}

// products/cdp/backend/api/plugin.py (posthog/api/plugin.py in 2024), PluginConfigViewSet.rearrange
export function rearrangeConfigs(ctx: RouteContext): Reply {
  const { store, dialect, key, project, body } = ctx;
  const orders = body.data.orders;
  if (orders === null || typeof orders !== 'object' || Array.isArray(orders)) {
    if (dialect === 'spec') throw validationError('orders', 'required', 'This field is required.');
  }
  const enabled = [...store.configs.values()].filter((c) => c.projectId === project.id && c.enabled);
  const changed: DestinationConfig[] = [];
  for (const [configId, order] of Object.entries((orders ?? {}) as Record<string, unknown>)) {
    const config = enabled.find((c) => String(c.id) === configId);
    if (!config || typeof order !== 'number' || !Number.isInteger(order) || config.order === order) continue;
    logConfigActivity(store, key, config, 'updated', [
      { type: 'PluginConfig', action: 'changed', field: 'order', before: config.order, after: order },
    ]);
    config.order = order;
    config.updatedAtMicros = store.nowMicros();
    changed.push(config);
  }
  if (dialect === 'spec') {
    const first = changed[0] ?? enabled[0];
    if (!first) throw notFound();
    return ok(view(ctx, first, 'write'));
  }
  enabled.sort((a, b) => a.order - b.order || a.plugin - b.plugin || a.id - b.id);
  return ok(enabled.map((c) => view(ctx, c, 'rearrange')));
}

function logConfigActivity(
  store: Store,
  key: ApiKey,
  config: DestinationConfig,
  activity: string,
  changes: ActivityChange[] | null,
  trigger: Record<string, unknown> | null = null,
): void {
  store.pushActivity({
    projectId: config.projectId,
    userId: key.userId,
    is_system: false,
    activity,
    scope: 'PluginConfig',
    item_id: String(config.id),
    detail: { ...configDetail(config, changes), trigger },
    createdAtMicros: store.nowMicros(),
  });
}
