// An upstream path as the route it belongs to, the only form of a path that goes into a metric
// label or a span name: `/api/projects/1/pipeline_destination_configs/7/` becomes
// `/api/projects/:project_id/pipeline_destination_configs/:id/`. A path of no known route folds
// into `other`, so labels stay bounded whatever an upstream link says.

const ROUTES = new Set([
  '/api/projects/',
  '/api/projects/:project_id/',
  '/api/projects/:project_id/pipeline_destination_configs/',
  '/api/projects/:project_id/pipeline_destination_configs/:id/',
  '/api/projects/:project_id/pipeline_destination_configs/:id/frontend/',
  '/api/projects/:project_id/pipeline_destination_configs/:id/job/',
  '/api/projects/:project_id/pipeline_destination_configs/rearrange/',
  '/api/projects/:project_id/activity_log/',
  '/api/projects/:project_id/activity_log/bookmark_activity_notification/',
  '/api/projects/:project_id/activity_log/important_changes/',
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
