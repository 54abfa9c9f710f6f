// The paths of the upstream's routes (routes.ts declares them), by the names loaders call them
// by; a path's route template (the only form of a path that goes into a metric label or a span
// name); and the resource a path is about (what a write may change, for live work).
import { matchRoute, ROUTES, type RouteMatch } from './routes.ts';

const R = ROUTES;

export const PATHS = {
  projects: R.projects.path,
  project: R.project.path,
  configs: R.configs.path,
  config: R.config.path,
  configFrontend: R.configFrontend.path,
  configJob: R.configJob.path,
  rearrange: R.rearrange.path,
  activityLog: R.activityLog.path,
  advancedActivityLogs: R.advancedActivityLogs.path,
  personalApiKeyCurrent: R.personalApiKeyCurrent.path,
  bookmark: R.bookmark.path,
  importantChanges: R.importantChanges.path,
  hogFunctions: R.hogFunctions.path,
  hogFunction: R.hogFunction.path,
  hogFunctionLogs: R.hogFunctionLogs.path,
  hogFunctionMetrics: R.hogFunctionMetrics.path,
  /** A function to test: a saved one, or `new` (its configuration is in the body). */
  hogFunctionInvocations: (projectId: string, uuid: string | null) =>
    uuid === null
      ? R.newHogFunctionInvocations.path(projectId)
      : R.hogFunctionInvocations.path(projectId, uuid),
  hogFunctionsRearrange: R.hogFunctionsRearrange.path,
  hogFunctionPublish: R.hogFunctionPublish.path,
  hogFunctionDiscardDraft: R.hogFunctionDiscardDraft.path,
  hogFunctionRevisions: R.hogFunctionRevisions.path,
  hogFunctionRevision: R.hogFunctionRevision.path,
  hogFunctionRevisionRestore: R.hogFunctionRevisionRestore.path,
  batchExports: R.batchExports.path,
  batchExport: R.batchExport.path,
  batchExportPause: R.batchExportPause.path,
  batchExportUnpause: R.batchExportUnpause.path,
  batchExportRuns: R.batchExportRuns.path,
  batchExportRun: R.batchExportRun.path,
  batchExportRunRetry: R.batchExportRunRetry.path,
  batchExportRunCancel: R.batchExportRunCancel.path,
  batchExportBackfills: R.batchExportBackfills.path,
  batchExportBackfill: R.batchExportBackfill.path,
  batchExportBackfillCancel: R.batchExportBackfillCancel.path,
  hogFunctionTemplates: R.hogFunctionTemplates.path,
  hogFunctionTemplate: R.hogFunctionTemplate.path,
};

// Route templates: `/api/projects/1/pipeline_destination_configs/7/` becomes
// `/api/projects/:project_id/pipeline_destination_configs/:id/`. A path of no declared route
// folds into `other`, so labels stay bounded whatever an upstream link says.

export const OTHER_ROUTE = 'other';

/** Paths seen, with their routes: a gateway calls a bounded set of paths, again and again. */
const known = new Map<string, RouteMatch | null>();
const KNOWN_MAX = 10_000;

function matched(path: string): RouteMatch | null {
  let found = known.get(path);
  if (found === undefined) {
    found = matchRoute(path);
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(path, found);
  }
  return found;
}

export const routeTemplate = (path: string): string => matched(path)?.template ?? OTHER_ROUTE;

/** What an upstream path is about. */
export interface Resource {
  projectId: string;
  /** The config the path is about; null for a list, the activity log or the project. */
  configId: number | null;
  /** The collection after the project (`hog_functions`, `batch_exports`, …); null: the project. */
  collection: string | null;
}

/** The resource a path built by PATHS is about; null for a path of no project (or no route). */
export function resourceOf(path: string): Resource | null {
  const found = matched(path);
  const projectId = found?.params.project_id;
  if (!found || projectId === undefined) return null;
  const config = Object.keys(found.params).find(
    (name) => found.collections[name] === 'pipeline_destination_configs',
  );
  const parts = found.template.split('/');
  const collection = parts[parts.indexOf(':project_id') + 1] || null;
  return { projectId, configId: config === undefined ? null : Number(found.params[config]), collection };
}
