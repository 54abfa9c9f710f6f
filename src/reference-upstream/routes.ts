// One handler per endpoint of interface.md, plus the project listing. A handler gets an
// authenticated key and a resolved project; scopes, throttling and method checks happen in
// server.ts before it runs, in the order PostHog applies them.
import { notFound, serverError, validationError } from './api-error.ts';
import type { ParsedBody } from './body.ts';
import type { ConfigView, Dialect } from './dialect.ts';
import { maskSecrets, serializeConfig, serializeEntry, serializeProject } from './dialect.ts';
import type { RequestUrl } from './pagination.ts';
import { cursorPage, limitOffsetPage } from './pagination.ts';
import type { ActivityChange, ApiKey, DestinationConfig, Project, Store } from './store.ts';
import { configDetail } from './store.ts';
import { mergeConfig, readWritableFields } from './validation.ts';

export interface RouteContext {
  store: Store;
  dialect: Dialect;
  key: ApiKey;
  project: Project;
  url: RequestUrl;
  params: Record<string, string>;
  body: ParsedBody;
}

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  contentType?: string;
}

export interface Operation {
  /** The scope PostHog asks for, or `custom` for actions it refuses to scoped keys. */
  scope: string;
  custom?: boolean;
  handle: (ctx: RouteContext) => Reply;
}

export interface Route {
  pattern: RegExp;
  /** Routes under /api/projects/:project_id/ resolve their project; the listing does not. */
  projectScoped: boolean;
  methods: Partial<Record<string, Operation>>;
}

const PROJECT = '/api/projects/(?<project>[^/]+)';
const CONFIGS = `${PROJECT}/pipeline_destination_configs`;
const route = (path: string) => new RegExp(`^${path}/?$`);

export const ROUTES: Route[] = [
  {
    pattern: route('/api/projects'),
    projectScoped: false,
    methods: { GET: { scope: 'project:read', handle: listProjects } },
  },
  {
    pattern: route(PROJECT),
    projectScoped: true,
    methods: { GET: { scope: 'project:read', handle: getProject } },
  },
  {
    pattern: route(CONFIGS),
    projectScoped: true,
    methods: {
      GET: { scope: 'plugin:read', handle: listConfigs },
      POST: { scope: 'plugin:write', handle: createConfig },
    },
  },
  {
    pattern: route(`${CONFIGS}/rearrange`),
    projectScoped: true,
    methods: { PATCH: { scope: 'plugin:write', custom: true, handle: rearrangeConfigs } },
  },
  {
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)`),
    projectScoped: true,
    methods: {
      GET: { scope: 'plugin:read', handle: retrieveConfig },
      PATCH: { scope: 'plugin:write', handle: (ctx) => updateConfig(ctx, true) },
      PUT: { scope: 'plugin:write', handle: (ctx) => updateConfig(ctx, false) },
      DELETE: { scope: 'plugin:write', handle: deleteConfig },
    },
  },
  {
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)/frontend`),
    projectScoped: true,
    methods: { GET: { scope: 'plugin:read', custom: true, handle: configFrontend } },
  },
  {
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)/job`),
    projectScoped: true,
    methods: { POST: { scope: 'plugin:write', custom: true, handle: runJob } },
  },
  {
    pattern: route(`${PROJECT}/activity_log`),
    projectScoped: true,
    methods: { GET: { scope: 'activity_log:read', handle: listActivity } },
  },
  {
    pattern: route(`${PROJECT}/activity_log/bookmark_activity_notification`),
    projectScoped: true,
    methods: { POST: { scope: 'activity_log:read', custom: true, handle: bookmark } },
  },
  {
    pattern: route(`${PROJECT}/activity_log/important_changes`),
    projectScoped: true,
    methods: { GET: { scope: 'activity_log:read', custom: true, handle: importantChanges } },
  },
];

const ok = (json: unknown, status = 200): Reply => ({ status, json });
const empty = (status: number): Reply => ({ status });

function listProjects({ store, key, url }: RouteContext): Reply {
  const user = store.users.get(key.userId)!;
  const visible = [...store.projects.values()].filter((p) => user.organizationIds.includes(p.organizationId));
  const page = limitOffsetPage(visible, url);
  return ok({ ...page, results: page.results.map((p) => serializeProject(store, p)) });
}

function getProject({ store, project }: RouteContext): Reply {
  return ok(serializeProject(store, project));
}

/** PostHog lists live configs by (order, plugin); the spec dialect lists all of them by id. */
function listedConfigs(store: Store, dialect: Dialect, projectId: number): DestinationConfig[] {
  const all = [...store.configs.values()].filter((c) => c.projectId === projectId);
  if (dialect === 'spec') return all.sort((a, b) => a.id - b.id);
  return all
    .filter((c) => !c.deleted)
    .sort((a, b) => a.order - b.order || a.plugin - b.plugin || a.id - b.id);
}

function listConfigs({ store, dialect, project, url }: RouteContext): Reply {
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

const view = (ctx: RouteContext, config: DestinationConfig, as: ConfigView) =>
  serializeConfig(ctx.store, ctx.dialect, config, as);

function retrieveConfig(ctx: RouteContext): Reply {
  return ok(view(ctx, requireConfig(ctx), 'retrieve'));
}

function createConfig(ctx: RouteContext): Reply {
  const { store, dialect, project, key, body } = ctx;
  const fields = readWritableFields(store, dialect, body, false);
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

function updateConfig(ctx: RouteContext, partial: boolean): Reply {
  const { store, dialect, key, body } = ctx;
  const config = requireConfig(ctx);
  const fields = readWritableFields(store, dialect, body, partial);
  // PostHog's update pops `plugin`: a config never changes plugin.
  delete fields.plugin;
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

function deleteConfig(ctx: RouteContext): Reply {
  const { store, dialect, key, project, params } = ctx;
  const config = findConfig(store, project, params.id);
  if (dialect === 'posthog') {
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

function configFrontend(ctx: RouteContext): Reply {
  const config = requireConfig(ctx);
  if (ctx.dialect === 'spec') return ok(view(ctx, config, 'retrieve'));
  const plugin = ctx.store.plugins.get(config.plugin)!;
  // PostHog serves the transpiled frontend.tsx, or a stub saying there is none.
  const source = plugin.has_frontend
    ? `"use strict";\nexport function getFrontendApp(require) {\n  return { default: function App() { return ${JSON.stringify(plugin.name)} } };\n}\n`
    : 'export function getFrontendApp () { return {"no_frontend": true} }';
  return { status: 200, text: source, contentType: 'application/javascript; charset=UTF-8' };
}

function runJob(ctx: RouteContext): Reply {
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

function rearrangeConfigs(ctx: RouteContext): Reply {
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

function projectActivityNewestFirst(store: Store, projectId: number) {
  return store.activity
    .filter((e) => e.projectId === projectId)
    .sort((a, b) => b.createdAtMicros - a.createdAtMicros);
}

function listActivity({ store, project, url }: RouteContext): Reply {
  let entries = projectActivityNewestFirst(store, project.id);
  const user = url.query.get('user');
  if (user !== null) {
    if (!/^\d+$/.test(user)) throw validationError('user', 'invalid_input', 'A valid integer is required.');
    entries = entries.filter((e) => e.userId === Number(user));
  }
  const scope = url.query.get('scope');
  if (scope !== null) entries = entries.filter((e) => e.scope === scope);
  const itemId = url.query.get('item_id');
  if (itemId !== null) entries = entries.filter((e) => e.item_id === itemId);
  const page = cursorPage(entries, (e) => e.createdAtMicros, url);
  // The list never computes `unread`; only important_changes does.
  return ok({ ...page, results: page.results.map((e) => serializeEntry(store, e, false)) });
}

function parseBookmark(value: unknown): number {
  const millis = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(millis)) {
    throw validationError(null, 'invalid_input', 'must provide a valid bookmark date');
  }
  return millis * 1000;
}

function bookmark({ store, dialect, key, project, body }: RouteContext): Reply {
  const raw = body.data.bookmark ?? (dialect === 'spec' ? body.data.created_at : undefined);
  if (raw === undefined || raw === null)
    throw validationError(null, 'invalid_input', 'must provide a bookmark date');
  const at = parseBookmark(raw);
  store.users.get(key.userId)!.lastViewedActivityMicros.set(project.id, at);
  if (dialect === 'posthog') return empty(204);
  const newest = projectActivityNewestFirst(store, project.id)[0];
  if (!newest) throw notFound();
  return ok(serializeEntry(store, newest, false));
}

const IMPORTANT_CHANGES_LIMIT = 10;

/** Changes by someone else (another user or the system), newest first, unread after the bookmark. */
function importantChanges({ store, dialect, key, project, url }: RouteContext): Reply {
  const lastRead = store.users.get(key.userId)!.lastViewedActivityMicros.get(project.id) ?? null;
  const isUnread = (micros: number) => lastRead === null || micros > lastRead;
  let entries = projectActivityNewestFirst(store, project.id).filter((e) => e.userId !== key.userId);
  if (url.query.get('unread') === 'true') entries = entries.filter((e) => isUnread(e.createdAtMicros));
  const results = entries
    .slice(0, IMPORTANT_CHANGES_LIMIT)
    .map((e) => serializeEntry(store, e, isUnread(e.createdAtMicros)));
  if (dialect === 'spec') {
    if (!results[0]) throw notFound();
    return ok(results[0]);
  }
  return ok({ results, last_read: lastRead === null ? null : new Date(lastRead / 1000).toISOString() });
}
