// The URL shape of the upstream, in one place: paths are built here (only from validated ids:
// ids.ts), turned into their route template here (the only form of a path that goes into a
// metric label or a span name), and parsed back here into the resource they are about (what a
// write may change, for live work).
import {
  CONFIG_ID_PATTERN,
  CURRENT_PROJECT,
  PROJECT_ID_PATTERN,
  validateConfigId,
  validateProjectId,
} from '../ids.ts';

const project = (projectId: string) => `/api/projects/${validateProjectId(projectId)}`;
const configs = (projectId: string) => `${project(projectId)}/pipeline_destination_configs`;
const config = (projectId: string, id: number) => `${configs(projectId)}/${validateConfigId(id)}`;

export const PATHS = {
  projects: () => '/api/projects/',
  project: (projectId: string) => `${project(projectId)}/`,
  configs: (projectId: string) => `${configs(projectId)}/`,
  config: (projectId: string, id: number) => `${config(projectId, id)}/`,
  configFrontend: (projectId: string, id: number) => `${config(projectId, id)}/frontend/`,
  configJob: (projectId: string, id: number) => `${config(projectId, id)}/job/`,
  rearrange: (projectId: string) => `${configs(projectId)}/rearrange/`,
  activityLog: (projectId: string) => `${project(projectId)}/activity_log/`,
  bookmark: (projectId: string) => `${project(projectId)}/activity_log/bookmark_activity_notification/`,
  importantChanges: (projectId: string) => `${project(projectId)}/activity_log/important_changes/`,
};

// Route templates: `/api/projects/1/pipeline_destination_configs/7/` becomes
// `/api/projects/:project_id/pipeline_destination_configs/:id/`. A path of no known route folds
// into `other`, so labels stay bounded whatever an upstream link says.

/** Every route PATHS builds, as its template (PATHS with `:project_id` and `:id` for the ids). */
const ROUTES = new Set([
  PATHS.projects(),
  ...[
    PATHS.project(CURRENT_PROJECT),
    PATHS.configs(CURRENT_PROJECT),
    PATHS.config(CURRENT_PROJECT, 1),
    PATHS.configFrontend(CURRENT_PROJECT, 1),
    PATHS.configJob(CURRENT_PROJECT, 1),
    PATHS.rearrange(CURRENT_PROJECT),
    PATHS.activityLog(CURRENT_PROJECT),
    PATHS.bookmark(CURRENT_PROJECT),
    PATHS.importantChanges(CURRENT_PROJECT),
  ].map((path) =>
    path
      .replace(`/${CURRENT_PROJECT}/`, '/:project_id/')
      .replace('/pipeline_destination_configs/1/', '/pipeline_destination_configs/:id/'),
  ),
]);

export const OTHER_ROUTE = 'other';

/** Paths seen, with their templates: a gateway calls a bounded set of paths, again and again. */
const known = new Map<string, string>();
const KNOWN_MAX = 10_000;

export function routeTemplate(path: string): string {
  let template = known.get(path);
  if (template === undefined) {
    template = templateOf(path);
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(path, template);
  }
  return template;
}

function templateOf(path: string): string {
  const template = path
    .replace(/^\/api\/projects\/(?:\d+|@current)\//, '/api/projects/:project_id/')
    .replace(/\/pipeline_destination_configs\/\d+\//, '/pipeline_destination_configs/:id/');
  return ROUTES.has(template) ? template : OTHER_ROUTE;
}

/** What an upstream path is about. */
export interface Resource {
  projectId: string;
  /** The config the path is about; null for a list, the activity log or the project. */
  configId: number | null;
}

const RESOURCE = new RegExp(
  `^/api/projects/(${PROJECT_ID_PATTERN})/(?:pipeline_destination_configs/(${CONFIG_ID_PATTERN})/)?`,
);

/** The resource a path built by PATHS is about; null for a path of no project. */
export function resourceOf(path: string): Resource | null {
  const match = RESOURCE.exec(path);
  if (!match) return null;
  return { projectId: match[1]!, configId: match[2] === undefined ? null : Number(match[2]) };
}
