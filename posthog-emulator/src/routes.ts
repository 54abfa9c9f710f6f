// The route table: one handler per endpoint of interface.md, plus the project listing (the
// handlers are in project-, config- and activity-routes.ts). A handler gets an
// authenticated key and a resolved project; scopes, throttling and method checks happen in
// server.ts before it runs, in the order PostHog applies them.
import { listAdvancedActivity } from './activity/advanced.ts';
import { bookmark, importantChanges, listActivity } from './activity/routes.ts';
import { BATCH_EXPORT_ROUTES } from './batch-exports/route-table.ts';
import { refuseToPersonalKeys } from './configs/2026.ts';
import {
  configFrontend,
  createConfig,
  deleteConfig,
  listConfigs,
  rearrangeConfigs,
  retrieveConfig,
  runJob,
  updateConfig,
} from './configs/routes.ts';
import { ALL_DIALECTS, type Dialect } from './dialect.ts';
import { discardHogFunctionDraft, maskedSecrets, publishHogFunction } from './hog-functions/drafts.ts';
import { invokeHogFunction } from './hog-functions/invocations.ts';
import { listHogFunctions } from './hog-functions/list.ts';
import {
  listHogFunctionRevisions,
  restoreHogFunctionRevision,
  retrieveHogFunctionRevision,
} from './hog-functions/revisions.ts';
import {
  createHogFunction,
  rearrangeHogFunctions,
  refuseHogFunctionDelete,
  retrieveHogFunction,
  updateHogFunction,
} from './hog-functions/routes.ts';
import { hogFunctionLogs, hogFunctionMetrics, hogFunctionMetricsTotals } from './hog-functions/runs.ts';
import { listHogFunctionTemplates, retrieveHogFunctionTemplate } from './hog-functions/template-routes.ts';
import { getProject, listProjects } from './project-routes.ts';
import { PERSONAL_API_KEY_ROUTES } from './personal-api-keys.ts';
import type { Reply, RouteContext } from './http/reply.ts';
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
  /** The dialects that still route it (every one when not given); elsewhere it is Django's 404. */
  dialects?: readonly Dialect[];
  /** A legacy pipeline route: gone (404) from an upstream started with `legacyRoutes: false`. */
  legacy?: true;
  /** posthog-2026: served without a key (AllowAny); a key sent is still authenticated. */
  anonymous?: true;
  /** posthog-2026: no check that the key's user belongs to the project's organization. */
  anyOrganization?: true;
  /** No scope asked (PersonalApiKeySelfAccessPermission): a key reads itself, whatever its scopes. */
  selfAccess?: true;
}

/** PostHog 2026 no longer routes these: any method, with or without a key, is 404. */
const UNTIL_2026: readonly Dialect[] = ['spec', 'posthog'];

/** Whether the upstream, as started, routes `route` at all. */
export const routes = (route: Route, dialect: Dialect, legacyRoutes: boolean) =>
  (route.dialects ?? ALL_DIALECTS).includes(dialect) && (legacyRoutes || !route.legacy);

const PROJECT = '/api/projects/(?<project>[^/]+)';
const CONFIGS = `${PROJECT}/pipeline_destination_configs`;
const HOG_FUNCTIONS = `${PROJECT}/hog_functions`;
const HOG_FUNCTION = `${HOG_FUNCTIONS}/(?<id>[^/.]+)`;
const route = (path: string) => new RegExp(`^${path}/?$`);
const ONLY_2026: readonly Dialect[] = ['posthog-2026'];
const hogRead = (handle: Operation['handle']): Operation => ({ scope: 'hog_function:read', handle });
const hogWrite = (handle: Operation['handle']): Operation => ({ scope: 'hog_function:write', handle });
const hogUnscoped: Operation = { scope: 'hog_function:write', custom: true, handle: refuseHogFunctionDelete };

/** Hog functions: served by the 2026 dialect only (the reference upstream's older PostHog lacks them). */
const HOG_FUNCTION_ROUTES: Route[] = [
  {
    pattern: route(HOG_FUNCTIONS),
    methods: { GET: hogRead(listHogFunctions), POST: hogWrite(createHogFunction) },
  },
  { pattern: route(`${HOG_FUNCTIONS}/rearrange`), methods: { PATCH: hogWrite(rearrangeHogFunctions) } },
  { pattern: route(`${HOG_FUNCTIONS}/masked_secrets`), methods: { GET: hogRead(maskedSecrets) } },
  // In neither scope list: refused to every personal API key.
  { pattern: route(`${HOG_FUNCTIONS}/icons?`), methods: { GET: hogUnscoped } },
  { pattern: route(`${HOG_FUNCTION}/enable_backfills`), methods: { POST: hogUnscoped } },
  { pattern: route(`${HOG_FUNCTION}/publish`), methods: { POST: hogWrite(publishHogFunction) } },
  { pattern: route(`${HOG_FUNCTION}/discard_draft`), methods: { POST: hogWrite(discardHogFunctionDraft) } },
  { pattern: route(`${HOG_FUNCTION}/revisions`), methods: { GET: hogRead(listHogFunctionRevisions) } },
  {
    pattern: route(`${HOG_FUNCTION}/revisions/(?<version>\\d+)`),
    methods: { GET: hogRead(retrieveHogFunctionRevision) },
  },
  {
    pattern: route(`${HOG_FUNCTION}/revisions/(?<version>\\d+)/restore`),
    methods: { POST: hogWrite(restoreHogFunctionRevision) },
  },
  {
    pattern: route(HOG_FUNCTION),
    methods: {
      GET: hogRead(retrieveHogFunction),
      PATCH: hogWrite((ctx) => updateHogFunction(ctx, true)),
      PUT: hogWrite((ctx) => updateHogFunction(ctx, false)),
      DELETE: hogWrite(refuseHogFunctionDelete),
    },
  },
  { pattern: route(`${HOG_FUNCTION}/logs`), methods: { GET: hogRead(hogFunctionLogs) } },
  { pattern: route(`${HOG_FUNCTION}/metrics`), methods: { GET: hogRead(hogFunctionMetrics) } },
  { pattern: route(`${HOG_FUNCTION}/metrics/totals`), methods: { GET: hogRead(hogFunctionMetricsTotals) } },
  { pattern: route(`${HOG_FUNCTION}/invocations`), methods: { POST: hogWrite(invokeHogFunction) } },
  // hog_function_template.py@b1d33f0: [IsAuthenticated, APIScopePermission], no membership check.
  {
    pattern: route(`${PROJECT}/hog_function_templates`),
    anyOrganization: true as const,
    methods: { GET: hogRead(listHogFunctionTemplates) },
  },
  {
    pattern: route(`${PROJECT}/hog_function_templates/(?<id>[^/]+)`),
    anyOrganization: true as const,
    methods: { GET: hogRead(retrieveHogFunctionTemplate) },
  },
].map((r) => ({ ...r, projectScoped: true, dialects: ONLY_2026 }));

/** hog_function_template.py@b1d33f0: the same viewset's anonymous catalog (AllowAny). */
const PUBLIC_TEMPLATE_ROUTES: Route[] = [
  {
    pattern: route('/api/public_hog_function_templates'),
    methods: { GET: hogRead(listHogFunctionTemplates) },
  },
  {
    pattern: route('/api/public_hog_function_templates/(?<id>[^/]+)'),
    methods: { GET: hogRead(retrieveHogFunctionTemplate) },
  },
].map((r) => ({ ...r, projectScoped: false, anonymous: true, dialects: ONLY_2026 }));

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
    legacy: true,
    projectScoped: true,
    methods: {
      GET: { scope: 'plugin:read', handle: listConfigs },
      POST: { scope: 'plugin:write', handle: createConfig },
    },
  },
  {
    pattern: route(`${CONFIGS}/rearrange`),
    legacy: true,
    projectScoped: true,
    methods: { PATCH: { scope: 'plugin:write', custom: true, handle: rearrangeConfigs } },
  },
  {
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)`),
    legacy: true,
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
    legacy: true,
    projectScoped: true,
    methods: { GET: { scope: 'plugin:read', custom: true, handle: configFrontend } },
  },
  // PluginConfigViewSet's activity and migrate: in no scope list, so refused to every personal key.
  ...['activity', 'migrate'].map((action) => ({
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)/${action}`),
    legacy: true as const,
    dialects: ONLY_2026,
    projectScoped: true,
    methods: {
      [action === 'activity' ? 'GET' : 'POST']: {
        scope: 'plugin:read',
        custom: true,
        handle: refuseToPersonalKeys,
      },
    },
  })),
  {
    pattern: route(`${CONFIGS}/(?<id>[^/.]+)/job`),
    legacy: true,
    dialects: UNTIL_2026,
    projectScoped: true,
    methods: { POST: { scope: 'plugin:write', custom: true, handle: runJob } },
  },
  {
    pattern: route(`${PROJECT}/activity_log`),
    projectScoped: true,
    methods: { GET: { scope: 'activity_log:read', handle: listActivity } },
  },
  {
    pattern: route(`${PROJECT}/advanced_activity_logs`),
    dialects: ['posthog-2026'],
    projectScoped: true,
    methods: { GET: { scope: 'activity_log:read', handle: listAdvancedActivity } },
  },
  {
    pattern: route(`${PROJECT}/activity_log/bookmark_activity_notification`),
    dialects: UNTIL_2026,
    projectScoped: true,
    methods: { POST: { scope: 'activity_log:read', custom: true, handle: bookmark } },
  },
  {
    pattern: route(`${PROJECT}/activity_log/important_changes`),
    dialects: UNTIL_2026,
    projectScoped: true,
    methods: { GET: { scope: 'activity_log:read', custom: true, handle: importantChanges } },
  },
  // posthog/api/my_notifications.py@31b95ce: scope_object "INTERNAL", so every personal key is refused.
  ...['my_notifications', 'my_notifications/bookmark'].map((path) => ({
    pattern: route(`${PROJECT}/${path}`),
    dialects: ONLY_2026,
    projectScoped: true,
    methods: {
      [path.endsWith('bookmark') ? 'POST' : 'GET']: {
        scope: 'INTERNAL',
        custom: true,
        handle: refuseToPersonalKeys,
      },
    },
  })),
  ...HOG_FUNCTION_ROUTES,
  ...PUBLIC_TEMPLATE_ROUTES,
  ...BATCH_EXPORT_ROUTES,
  ...PERSONAL_API_KEY_ROUTES,
];
