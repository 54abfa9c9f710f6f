// The route table: one handler per endpoint of interface.md, plus the project listing (the
// handlers are in project-, config- and activity-routes.ts). A handler gets an
// authenticated key and a resolved project; scopes, throttling and method checks happen in
// server.ts before it runs, in the order PostHog applies them.
import { bookmark, importantChanges, listActivity } from './activity-routes.ts';
import {
  configFrontend,
  createConfig,
  deleteConfig,
  listConfigs,
  rearrangeConfigs,
  retrieveConfig,
  runJob,
  updateConfig,
} from './config-routes.ts';
import { getProject, listProjects } from './project-routes.ts';
import type { Reply, RouteContext } from './reply.ts';
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
