// The upstream's routes, each declared once as its template: paths are built from it (each id
// through its validator, core/ids.ts), matched against it (a path's route template, the only form of
// a path that goes into a metric label or a span name) and parsed back by it (the ids a path is
// about). A `:param` segment is the id of the collection named before it (`SEGMENTS`).
import {
  CONFIG_ID_PATTERN,
  PROJECT_ID_PATTERN,
  TEMPLATE_ID_PATTERN,
  UUID_PATTERN,
  validateConfigId,
  validateHogFunctionId,
  validateProjectId,
  validateTemplateId,
  validateUuid,
} from '../../core/ids.ts';

/** How the id after a collection's name is written: its validator and the pattern it matches. */
interface Segment<V> {
  /** The id as it goes into a path; throws when it may not. */
  write: (value: V) => string;
  /** The id as written, for a regular expression (without groups). */
  pattern: string;
}

/** A revision's version: a non-negative integer, as PostHog's route (`\d+`) takes it. */
const revisionVersion = (version: number) => {
  if (!Number.isSafeInteger(version) || version < 0)
    throw new RangeError('a revision version is a non-negative integer');
  return String(version);
};

/** The ids of the collections, by the name the segment before them has. */
export const SEGMENTS = {
  projects: { write: (id: string) => validateProjectId(id), pattern: PROJECT_ID_PATTERN },
  pipeline_destination_configs: {
    write: (id: number) => String(validateConfigId(id)),
    pattern: CONFIG_ID_PATTERN,
  },
  hog_functions: { write: (uuid: string) => validateHogFunctionId(uuid), pattern: UUID_PATTERN },
  revisions: { write: revisionVersion, pattern: String.raw`\d+` },
  batch_exports: { write: (uuid: string) => validateUuid(uuid, 'a batch export'), pattern: UUID_PATTERN },
  runs: { write: (uuid: string) => validateUuid(uuid, 'a batch export run'), pattern: UUID_PATTERN },
  backfills: {
    write: (uuid: string) => validateUuid(uuid, 'a batch export backfill'),
    pattern: UUID_PATTERN,
  },
  hog_function_templates: { write: (id: string) => validateTemplateId(id), pattern: TEMPLATE_ID_PATTERN },
} satisfies Record<string, Segment<never>>;

type Collection = keyof typeof SEGMENTS;
type ValueOf<C> = C extends Collection ? Parameters<(typeof SEGMENTS)[C]['write']>[0] : never;
type LastSegment<T extends string> = T extends `${string}/${infer Rest}` ? LastSegment<Rest> : T;
/** The values a template's `:params` take, in order (`/projects/:project_id/` takes a project id). */
export type RouteArgs<T extends string> = T extends `${infer Before}/:${string}/${infer Rest}`
  ? [ValueOf<LastSegment<Before>>, ...RouteArgs<Rest>]
  : [];

/** A path parsed by a route: its template and its ids as written, by param name. */
export interface RouteMatch {
  template: string;
  params: Record<string, string>;
  /** The collection each param is the id of, by param name. */
  collections: Record<string, Collection>;
}

export interface Route<T extends string> {
  template: T;
  /** The path of these ids; throws (BAD_USER_INPUT, core/ids.ts) for an id that may not go into it. */
  path: (...args: RouteArgs<T>) => string;
  /** The route's params of `path`, or null when `path` is not of this route. */
  match: (path: string) => RouteMatch | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route, from its template: `/api/projects/:project_id/hog_functions/:id/`. */
export function route<const T extends string>(template: T): Route<T> {
  const parts = template.split('/');
  const params: { index: number; name: string; collection: Collection }[] = [];
  parts.forEach((part, index) => {
    if (!part.startsWith(':')) return;
    const collection = parts[index - 1] as Collection;
    if (!(collection in SEGMENTS)) throw new Error(`${template}: ${part} follows no known collection`);
    params.push({ index, name: part.slice(1), collection });
  });
  const byIndex = new Map(params.map((param) => [param.index, param.collection]));
  const pattern = parts.map((part, index) => {
    const collection = byIndex.get(index);
    return collection === undefined ? escapeRegExp(part) : `(${SEGMENTS[collection].pattern})`;
  });
  const regex = new RegExp(`^${pattern.join('/')}$`);
  const collections = Object.fromEntries(params.map((p) => [p.name, p.collection]));
  return {
    template,
    path: (...args) => {
      const out = [...parts];
      params.forEach((param, i) => {
        const write = SEGMENTS[param.collection].write as (value: unknown) => string;
        out[param.index] = write(args[i]);
      });
      return out.join('/');
    },
    match: (path) => {
      const found = regex.exec(path);
      if (!found) return null;
      return {
        template,
        params: Object.fromEntries(params.map((p, i) => [p.name, found[i + 1]!])),
        collections,
      };
    },
  };
}

const P = '/api/projects/:project_id';
const CONFIG = `${P}/pipeline_destination_configs/:id`;
const HOG_FUNCTION = `${P}/hog_functions/:id`;
const BATCH_EXPORT = `${P}/batch_exports/:id`;

/** Every route the gateway calls. */
export const ROUTES = {
  projects: route('/api/projects/'),
  project: route(`${P}/`),
  configs: route(`${P}/pipeline_destination_configs/`),
  config: route(`${CONFIG}/`),
  configFrontend: route(`${CONFIG}/frontend/`),
  configJob: route(`${CONFIG}/job/`),
  rearrange: route(`${P}/pipeline_destination_configs/rearrange/`),
  activityLog: route(`${P}/activity_log/`),
  advancedActivityLogs: route(`${P}/advanced_activity_logs/`),
  /** The caller's own personal API key (posthog/api/personal_api_key.py, `get_object` on "@current"). */
  personalApiKeyCurrent: route('/api/personal_api_keys/@current/'),
  bookmark: route(`${P}/activity_log/bookmark_activity_notification/`),
  importantChanges: route(`${P}/activity_log/important_changes/`),
  hogFunctions: route(`${P}/hog_functions/`),
  hogFunction: route(`${HOG_FUNCTION}/`),
  hogFunctionLogs: route(`${HOG_FUNCTION}/logs/`),
  hogFunctionMetrics: route(`${HOG_FUNCTION}/metrics/`),
  hogFunctionInvocations: route(`${HOG_FUNCTION}/invocations/`),
  newHogFunctionInvocations: route(`${P}/hog_functions/new/invocations/`),
  hogFunctionsRearrange: route(`${P}/hog_functions/rearrange/`),
  hogFunctionPublish: route(`${HOG_FUNCTION}/publish/`),
  hogFunctionDiscardDraft: route(`${HOG_FUNCTION}/discard_draft/`),
  hogFunctionRevisions: route(`${HOG_FUNCTION}/revisions/`),
  hogFunctionRevision: route(`${HOG_FUNCTION}/revisions/:version/`),
  hogFunctionRevisionRestore: route(`${HOG_FUNCTION}/revisions/:version/restore/`),
  hogFunctionTemplates: route(`${P}/hog_function_templates/`),
  hogFunctionTemplate: route(`${P}/hog_function_templates/:id/`),
  batchExports: route(`${P}/batch_exports/`),
  batchExport: route(`${BATCH_EXPORT}/`),
  batchExportPause: route(`${BATCH_EXPORT}/pause/`),
  batchExportUnpause: route(`${BATCH_EXPORT}/unpause/`),
  batchExportRuns: route(`${BATCH_EXPORT}/runs/`),
  batchExportRun: route(`${BATCH_EXPORT}/runs/:run_id/`),
  batchExportRunRetry: route(`${BATCH_EXPORT}/runs/:run_id/retry/`),
  batchExportRunCancel: route(`${BATCH_EXPORT}/runs/:run_id/cancel/`),
  batchExportBackfills: route(`${BATCH_EXPORT}/backfills/`),
  batchExportBackfill: route(`${BATCH_EXPORT}/backfills/:backfill_id/`),
  batchExportBackfillCancel: route(`${BATCH_EXPORT}/backfills/:backfill_id/cancel/`),
};

const ALL: readonly Route<string>[] = Object.values(ROUTES);

/** The route `path` is of, with its ids; null for a path of no declared route. */
export function matchRoute(path: string): RouteMatch | null {
  for (const declared of ALL) {
    const found = declared.match(path);
    if (found) return found;
  }
  return null;
}
