// The URL shape of the upstream, in one place: paths are built here (only from validated ids:
// ids.ts), turned into their route template here (the only form of a path that goes into a
// metric label or a span name), and parsed back here into the resource they are about (what a
// write may change, for live work).
import {
  CONFIG_ID_PATTERN,
  CURRENT_PROJECT,
  HOG_FUNCTION_ID_PATTERN,
  PROJECT_ID_PATTERN,
  TEMPLATE_ID_PATTERN,
  validateConfigId,
  validateHogFunctionId,
  validateProjectId,
  validateTemplateId,
  validateUuid,
} from '../../core/ids.ts';

const project = (projectId: string) => `/api/projects/${validateProjectId(projectId)}`;
const configs = (projectId: string) => `${project(projectId)}/pipeline_destination_configs`;
const config = (projectId: string, id: number) => `${configs(projectId)}/${validateConfigId(id)}`;
const hogFunctions = (projectId: string) => `${project(projectId)}/hog_functions`;
const hogFunction = (projectId: string, uuid: string) =>
  `${hogFunctions(projectId)}/${validateHogFunctionId(uuid)}`;
const batchExports = (projectId: string) => `${project(projectId)}/batch_exports`;
const batchExport = (projectId: string, uuid: string) =>
  `${batchExports(projectId)}/${validateUuid(uuid, 'a batch export')}`;
const run = (projectId: string, uuid: string, runUuid: string) =>
  `${batchExport(projectId, uuid)}/runs/${validateUuid(runUuid, 'a batch export run')}`;
const backfill = (projectId: string, uuid: string, backfillUuid: string) =>
  `${batchExport(projectId, uuid)}/backfills/${validateUuid(backfillUuid, 'a batch export backfill')}`;
/** A revision's version: a non-negative integer, as PostHog's route (`\d+`) takes it. */
const revisionVersion = (version: number) => {
  if (!Number.isSafeInteger(version) || version < 0)
    throw new RangeError('a revision version is a non-negative integer');
  return String(version);
};
/** A function to test: a saved one, or `new` (its configuration is in the body). */
const testedFunction = (projectId: string, uuid: string | null) =>
  uuid === null ? `${hogFunctions(projectId)}/new` : hogFunction(projectId, uuid);

export const PATHS = {
  projects: () => '/api/projects/',
  project: (projectId: string) => `${project(projectId)}/`,
  configs: (projectId: string) => `${configs(projectId)}/`,
  config: (projectId: string, id: number) => `${config(projectId, id)}/`,
  configFrontend: (projectId: string, id: number) => `${config(projectId, id)}/frontend/`,
  configJob: (projectId: string, id: number) => `${config(projectId, id)}/job/`,
  rearrange: (projectId: string) => `${configs(projectId)}/rearrange/`,
  activityLog: (projectId: string) => `${project(projectId)}/activity_log/`,
  advancedActivityLogs: (projectId: string) => `${project(projectId)}/advanced_activity_logs/`,
  bookmark: (projectId: string) => `${project(projectId)}/activity_log/bookmark_activity_notification/`,
  importantChanges: (projectId: string) => `${project(projectId)}/activity_log/important_changes/`,
  hogFunctions: (projectId: string) => `${hogFunctions(projectId)}/`,
  hogFunction: (projectId: string, uuid: string) => `${hogFunction(projectId, uuid)}/`,
  hogFunctionLogs: (projectId: string, uuid: string) => `${hogFunction(projectId, uuid)}/logs/`,
  hogFunctionMetrics: (projectId: string, uuid: string) => `${hogFunction(projectId, uuid)}/metrics/`,
  hogFunctionInvocations: (projectId: string, uuid: string | null) =>
    `${testedFunction(projectId, uuid)}/invocations/`,
  hogFunctionsRearrange: (projectId: string) => `${hogFunctions(projectId)}/rearrange/`,
  hogFunctionPublish: (projectId: string, uuid: string) => `${hogFunction(projectId, uuid)}/publish/`,
  hogFunctionDiscardDraft: (projectId: string, uuid: string) =>
    `${hogFunction(projectId, uuid)}/discard_draft/`,
  hogFunctionRevisions: (projectId: string, uuid: string) => `${hogFunction(projectId, uuid)}/revisions/`,
  hogFunctionRevision: (projectId: string, uuid: string, version: number) =>
    `${hogFunction(projectId, uuid)}/revisions/${revisionVersion(version)}/`,
  hogFunctionRevisionRestore: (projectId: string, uuid: string, version: number) =>
    `${hogFunction(projectId, uuid)}/revisions/${revisionVersion(version)}/restore/`,
  batchExports: (projectId: string) => `${batchExports(projectId)}/`,
  batchExport: (projectId: string, uuid: string) => `${batchExport(projectId, uuid)}/`,
  batchExportPause: (projectId: string, uuid: string) => `${batchExport(projectId, uuid)}/pause/`,
  batchExportUnpause: (projectId: string, uuid: string) => `${batchExport(projectId, uuid)}/unpause/`,
  batchExportRuns: (projectId: string, uuid: string) => `${batchExport(projectId, uuid)}/runs/`,
  batchExportRun: (projectId: string, uuid: string, runUuid: string) => `${run(projectId, uuid, runUuid)}/`,
  batchExportRunRetry: (projectId: string, uuid: string, runUuid: string) =>
    `${run(projectId, uuid, runUuid)}/retry/`,
  batchExportRunCancel: (projectId: string, uuid: string, runUuid: string) =>
    `${run(projectId, uuid, runUuid)}/cancel/`,
  batchExportBackfills: (projectId: string, uuid: string) => `${batchExport(projectId, uuid)}/backfills/`,
  batchExportBackfill: (projectId: string, uuid: string, backfillUuid: string) =>
    `${backfill(projectId, uuid, backfillUuid)}/`,
  batchExportBackfillCancel: (projectId: string, uuid: string, backfillUuid: string) =>
    `${backfill(projectId, uuid, backfillUuid)}/cancel/`,
  hogFunctionTemplates: (projectId: string) => `${project(projectId)}/hog_function_templates/`,
  hogFunctionTemplate: (projectId: string, id: string) =>
    `${project(projectId)}/hog_function_templates/${validateTemplateId(id)}/`,
};

/** A UUID standing for any hog function, to write route templates with. */
const ANY_HOG_FUNCTION = '00000000-0000-0000-0000-000000000000';
/** A template id standing for any template. */
const ANY_TEMPLATE = 'any-template';

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
    PATHS.advancedActivityLogs(CURRENT_PROJECT),
    PATHS.bookmark(CURRENT_PROJECT),
    PATHS.importantChanges(CURRENT_PROJECT),
    PATHS.hogFunctions(CURRENT_PROJECT),
    PATHS.hogFunction(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionLogs(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionMetrics(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionInvocations(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionInvocations(CURRENT_PROJECT, null),
    PATHS.hogFunctionsRearrange(CURRENT_PROJECT),
    PATHS.hogFunctionPublish(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionDiscardDraft(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionRevisions(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.hogFunctionRevision(CURRENT_PROJECT, ANY_HOG_FUNCTION, 1),
    PATHS.hogFunctionRevisionRestore(CURRENT_PROJECT, ANY_HOG_FUNCTION, 1),
    PATHS.hogFunctionTemplates(CURRENT_PROJECT),
    PATHS.batchExports(CURRENT_PROJECT),
    PATHS.batchExport(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.batchExportPause(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.batchExportUnpause(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.batchExportRuns(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.batchExportRun(CURRENT_PROJECT, ANY_HOG_FUNCTION, ANY_HOG_FUNCTION),
    PATHS.batchExportRunRetry(CURRENT_PROJECT, ANY_HOG_FUNCTION, ANY_HOG_FUNCTION),
    PATHS.batchExportRunCancel(CURRENT_PROJECT, ANY_HOG_FUNCTION, ANY_HOG_FUNCTION),
    PATHS.batchExportBackfills(CURRENT_PROJECT, ANY_HOG_FUNCTION),
    PATHS.batchExportBackfill(CURRENT_PROJECT, ANY_HOG_FUNCTION, ANY_HOG_FUNCTION),
    PATHS.batchExportBackfillCancel(CURRENT_PROJECT, ANY_HOG_FUNCTION, ANY_HOG_FUNCTION),
    PATHS.hogFunctionTemplate(CURRENT_PROJECT, ANY_TEMPLATE),
  ].map((path) =>
    path
      .replace(`/${CURRENT_PROJECT}/`, '/:project_id/')
      .replace('/pipeline_destination_configs/1/', '/pipeline_destination_configs/:id/')
      .replace(`/hog_functions/${ANY_HOG_FUNCTION}/`, '/hog_functions/:id/')
      .replace('/revisions/1/', '/revisions/:version/')
      .replace(`/batch_exports/${ANY_HOG_FUNCTION}/`, '/batch_exports/:id/')
      .replace(`/runs/${ANY_HOG_FUNCTION}/`, '/runs/:run_id/')
      .replace(`/backfills/${ANY_HOG_FUNCTION}/`, '/backfills/:backfill_id/')
      .replace(`/hog_function_templates/${ANY_TEMPLATE}/`, '/hog_function_templates/:id/'),
  ),
]);

export const OTHER_ROUTE = 'other';

const HOG_FUNCTION_IN_PATH = new RegExp(`/hog_functions/${HOG_FUNCTION_ID_PATTERN}/`);
const BATCH_EXPORT_IN_PATH = new RegExp(`/batch_exports/${HOG_FUNCTION_ID_PATTERN}/`);
const RUN_IN_PATH = new RegExp(`/runs/${HOG_FUNCTION_ID_PATTERN}/`);
const BACKFILL_IN_PATH = new RegExp(`/backfills/${HOG_FUNCTION_ID_PATTERN}/`);
const TEMPLATE_IN_PATH = new RegExp(`/hog_function_templates/${TEMPLATE_ID_PATTERN}/`);

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
    .replace(/\/pipeline_destination_configs\/\d+\//, '/pipeline_destination_configs/:id/')
    .replace(HOG_FUNCTION_IN_PATH, '/hog_functions/:id/')
    .replace(/\/revisions\/\d+\//, '/revisions/:version/')
    .replace(BATCH_EXPORT_IN_PATH, '/batch_exports/:id/')
    .replace(RUN_IN_PATH, '/runs/:run_id/')
    .replace(BACKFILL_IN_PATH, '/backfills/:backfill_id/')
    .replace(TEMPLATE_IN_PATH, '/hog_function_templates/:id/');
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
