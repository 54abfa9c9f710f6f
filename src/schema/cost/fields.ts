// What each field costs, for the estimator (cost.ts): how many items it returns (what is under
// it counts that many times), how many upstream requests it makes itself, and which fields are
// read together with their list's other items (cross-links, an item's newest activity). The
// figures follow the loaders (src/loaders/): a change there is a change here.
import type { FieldNode, FragmentDefinitionNode, GraphQLSchema } from 'graphql';
import { type ActivityLogFilter, checksEntries, normalizedFilter } from '../../loaders/activity/filter.ts';
import { TEMPLATE_SEARCH_PAGES } from '../../loaders/hog-functions/templates.ts';
import { DEFAULT_PAGE_SIZE } from '../connections/connection.ts';
import { MAX_UPSTREAM_PAGES } from '../connections/cursor.ts';
import { FIELDS_LISTS_LACK, selects } from '../selection.ts';

/**
 * What one batch of cross-links to configs is counted as: the page's distinct configs, read as
 * list pages (the first, and the rest when fewer than the ids still missing: two more cover 300
 * configs) plus two retrieves of configs lists leave out (soft-deleted), or a retrieve each when
 * there are only a few.
 */
export const CROSS_LINK_BATCH_CALLS = 5;

/** Upstream calls of `links` cross-links resolved together. */
export const batchCalls = (links: number) => Math.min(links, CROSS_LINK_BATCH_CALLS);

export type Args = Record<string, unknown>;

export const CONNECTIONS = new Set([
  'Query.projects',
  'Project.destinationConfigs',
  'Project.activityLog',
  'DestinationConfig.activity',
  'Project.hogFunctions',
  'HogFunction.activity',
  'Project.destinations',
  'HogFunction.revisions',
  'Project.hogFunctionTemplates',
  'Project.batchExports',
  'BatchExport.runs',
  'BatchExport.backfills',
  'BatchExport.activity',
]);

/**
 * What Project.destinations reads, at worst in an ordinary project: a page of hog functions, two
 * pages of plugin configs, a retrieve per distinct plugin (PostHog's catalogue of the plugins
 * still in use is small), and a page of batch exports. A project past it is refused by the
 * run-time backstop, not mis-served.
 */
export const DESTINATIONS_CALLS = 11;

/** How many items a field returns at most; what is under it counts that many times. */
export function multiplierOf(typeName: string, fieldName: string, args: Args, override?: number): number {
  if (fieldName === 'nodes' && typeName === 'Query') return Array.isArray(args.ids) ? args.ids.length : 1;
  if (CONNECTIONS.has(`${typeName}.${fieldName}`)) {
    const size = override ?? ((args.first ?? args.last ?? DEFAULT_PAGE_SIZE) as number);
    return Math.max(0, size);
  }
  // Bounded lists: important changes answer at most 10 entries; rearrange reports every enabled
  // config of the project (counted as one upstream page).
  if (typeName === 'ImportantChanges' && fieldName === 'entries') return 10;
  if (typeName === 'RearrangeDestinationConfigsPayload' && fieldName === 'destinationConfigs') return 100;
  return 1;
}

export interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Args;
  isMutation: boolean;
  /**
   * Whether an item's `activity(first: n)` is read with its page's other items' (the upstream has
   * advanced_activity_logs, or the gateway has not learnt that it lacks it).
   */
  itemHeadsBatched: boolean;
  /** A connection's size to price instead of its `first`/`last` (cost-advice.ts tries smaller ones). */
  sizes?: ReadonlyMap<FieldNode, number>;
  /** Where the walk records each connection it prices, for advice on a refused operation. */
  sites?: Map<FieldNode, ConnectionSite>;
}

/** A connection in the operation, as priced: what it adds, by its `first` (or `last`). */
export interface ConnectionSite {
  node: FieldNode;
  /** The response path, e.g. `project.destinations`. */
  path: string;
  argument: 'first' | 'last';
  size: number;
  cost: number;
  upstreamCalls: number;
}

/** The requests a field makes itself, at worst. */
export function callsOf(
  walk: Walk,
  typeName: string,
  fieldName: string,
  args: Args,
  underProjects: boolean,
): number {
  switch (`${typeName}.${fieldName}`) {
    case 'Query.projects':
    case 'Query.node':
    case 'Project.destinationConfig':
    case 'Project.importantChanges':
    case 'DestinationConfig.frontend':
    case 'DestinationConfig.pluginInfo':
    case 'ActivityLogEntry.destinationConfig':
    case 'Project.hogFunction':
    case 'Project.hogFunctionTemplate':
    case 'Project.batchExport':
    case 'BatchExportRun.batchExport':
    case 'BatchExportBackfill.batchExport':
    case 'HogFunction.logs':
    case 'HogFunction.metrics':
    case 'HogFunction.revision':
    case 'HogFunctionRevision.hogFunction':
    case 'PreviewHogFunctionPublishPayload.hogFunction':
      // PostHog's preview does not answer the function: it is read when selected.
      return 1;
    case 'HogFunctionRevision.hog':
    case 'HogFunctionRevision.inputsSchema':
    case 'HogFunctionRevision.inputs':
    case 'HogFunctionRevision.filters':
    case 'HogFunctionRevision.mappings':
    case 'HogFunctionRevision.masking':
      // A listed revision reads its config from the revision (once a request, whatever fields).
      return 1;
    case 'HogFunction.revisions':
      return args.last != null && args.before == null ? 2 : 1;
    case 'Query.nodes':
      return Array.isArray(args.ids) ? args.ids.length : 1;
    case 'Project.name':
      // The projects listing already carries names.
      return underProjects ? 0 : 1;
    case 'Project.destinations':
      return DESTINATIONS_CALLS;
    case 'Project.hogFunctionTemplates':
      if (args.search != null) return TEMPLATE_SEARCH_PAGES;
      return args.last != null && args.before == null ? 2 : 1;
    case 'Project.destinationConfigs':
    case 'Project.hogFunctions':
    case 'Project.batchExports':
      return args.last != null && args.before == null ? 2 : 1;
    case 'BatchExport.runs':
    case 'BatchExport.backfills':
      // Cursor lists (runs 100 a page, backfills 50): as the activity log's, at most 3 pages
      // for any `first` from a cursor (backfills' pages are half the size of a connection's).
      if (args.last != null && args.before == null) return MAX_UPSTREAM_PAGES;
      return args.after != null || args.before != null ? 3 : 2;
    case 'Project.activityLog':
      if (filterWalksPages(walk, args)) return MAX_UPSTREAM_PAGES + 1;
      return activityPages(args);
    case 'DestinationConfig.activity':
    case 'HogFunction.activity':
    case 'BatchExport.activity':
      return activityPages(args);
    case 'DestinationConfig.deliveryRate24h':
      // Lists and retrieves carry it; a write's answer may not.
      return walk.isMutation ? 1 : 0;
    case 'Mutation.runDestinationConfigJob':
      return 2;
    case 'Mutation.updateBatchExport':
    case 'Mutation.pauseBatchExport':
    case 'Mutation.unpauseBatchExport':
    case 'Mutation.cancelBatchExportBackfill':
    case 'Mutation.retryBatchExportRun':
    case 'Mutation.cancelBatchExportRun':
      // The write, then a read of what it changed (or, for an update, of what it must resend).
      return 2;
    case 'Mutation.createBatchExportBackfill':
      // The export (its interval says whether dates or times go), the write, the backfill.
      return 3;
    case 'Mutation.testHogFunction':
      // A saved function tested without a configuration is read first (its stored one is sent).
      return 2;
    default:
      return typeName === 'Mutation' ? 1 : 0;
  }
}

/** The pages an activity list reads when every entry the upstream sends matches. */
function activityPages(args: Args): number {
  // Backward without `before` reads from the top to the end of the log.
  if (args.last != null && args.before == null) return MAX_UPSTREAM_PAGES;
  // The page a cursor points into, and the next (or previous) one when `first` (`last`) runs
  // past it. From the top, one upstream page (100) holds any `first` (at most 100).
  return args.after != null || args.before != null ? 2 : 1;
}

/**
 * Whether a `filter` makes the gateway check entries itself (loaders/activity-filter.ts): then a
 * page may hold fewer matches than it reads, and the field reads up to MAX_UPSTREAM_PAGES pages,
 * after one try of advanced_activity_logs while the upstream's routes are not known.
 */
function filterWalksPages(walk: Walk, args: Args): boolean {
  const filter = normalizedFilter(args.filter as ActivityLogFilter | null | undefined);
  if (!filter) return false;
  const filters = {
    scope: args.scope as string,
    itemId: args.itemId as string,
    userId: args.userId as number,
    filter,
  };
  return !walk.itemHeadsBatched || checksEntries(filters, 'advanced');
}

/** The types whose `activity(first: n)` is read for a page of items at once. */
const ITEM_HEAD_TYPES = new Set(['DestinationConfig', 'HogFunction', 'BatchExport']);

/** An item's `activity(first: n)` from the top, where the upstream serves several items' at once. */
export const isItemHead = (walk: Walk, typeName: string, fieldName: string, args: Args) =>
  walk.itemHeadsBatched &&
  fieldName === 'activity' &&
  ITEM_HEAD_TYPES.has(typeName) &&
  typeof args.first === 'number' &&
  args.first > 0 &&
  args.after == null &&
  args.before == null &&
  args.last == null;

/**
 * A field read with its list's other items' in one batch (not retrieved alone): an entry's item
 * (config, hog function, batch export), a run's backfill (loaders/run-backfills.ts).
 */
export const isBatchedCrossLink = (walk: Walk, typeName: string, node: FieldNode) =>
  (typeName === 'BatchExportRun' && node.name.value === 'backfill') ||
  (typeName === 'ActivityLogEntry' &&
    // A hog function list is read whole (`full=true`): its cross-links are always batched.
    (node.name.value === 'hogFunction' ||
      node.name.value === 'batchExport' ||
      (node.name.value === 'destinationConfig' &&
        !selects(node.selectionSet, FIELDS_LISTS_LACK, walk.fragments))));
