// The cost of an operation and the most upstream requests it may cause, computed from the
// document and its variables before anything runs: the schema's estimator, beside the fields it
// prices, handed to the limits plugin (limits/index.ts) by app.ts.
//
// Cost: every field costs 1, and a field that returns many items (a connection's `first` or
// `last`, 20 when neither is given; `nodes`' ids; a bounded list) multiplies the cost of what is
// under it. Upstream calls: the same walk, counting the requests each field makes as the loaders
// really make them: a page of the activity log may continue into the next page; a config read
// from a list may need a retrieve for `pluginInfo`; and an entry's `destinationConfig` is not a
// call per entry but one batch per page of entries (loaders/configs.ts: distinct ids, list pages of 100
// when several configs of a project are needed), counted as CROSS_LINK_BATCH_CALLS at most.
// The estimate runs before any call; a run-time backstop (context.ts) refuses any call past the
// budget should a batch cost more (a project with many soft-deleted configs), and only the fields
// past it fail.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isAbstractType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { EstimateOperation, OperationEstimate } from '../limits/estimate.ts';
import { TEMPLATE_SEARCH_PAGES } from '../loaders/hog-function-templates.ts';
import type { UpstreamFeatures } from '../loaders/upstream-features.ts';
import { DEFAULT_PAGE_SIZE } from './connections/connection.ts';
import { MAX_UPSTREAM_PAGES } from './connections/cursor.ts';
import { adviseOn } from './cost-advice.ts';
import { FIELDS_LISTS_LACK, selects } from './selection.ts';

/** A walk's result: also the cross-links still to batch (per item of the nearest list above). */
interface Estimate extends OperationEstimate {
  links: number;
}

/**
 * What one batch of cross-links to configs is counted as: the page's distinct configs, read as
 * list pages (the first, and the rest when fewer than the ids still missing: two more cover 300
 * configs) plus two retrieves of configs lists leave out (soft-deleted), or a retrieve each when
 * there are only a few.
 */
export const CROSS_LINK_BATCH_CALLS = 5;
const ZERO: Estimate = { cost: 0, upstreamCalls: 0, links: 0 };

/** Upstream calls of `links` cross-links resolved together. */
const batchCalls = (links: number) => Math.min(links, CROSS_LINK_BATCH_CALLS);

type Args = Record<string, unknown>;

const CONNECTIONS = new Set([
  'Query.projects',
  'Project.destinationConfigs',
  'Project.activityLog',
  'DestinationConfig.activity',
  'Project.hogFunctions',
  'HogFunction.activity',
  'Project.destinations',
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
function multiplierOf(typeName: string, fieldName: string, args: Args, override?: number): number {
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

interface Walk {
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
function callsOf(
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
    case 'BatchExportRun.backfill':
    case 'BatchExportRun.batchExport':
    case 'BatchExportBackfill.batchExport':
    case 'HogFunction.logs':
    case 'HogFunction.metrics':
      return 1;
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
    case 'DestinationConfig.activity':
    case 'HogFunction.activity':
    case 'BatchExport.activity':
      // Backward without `before` reads from the top to the end of the log.
      if (args.last != null && args.before == null) return MAX_UPSTREAM_PAGES;
      // The page a cursor points into, and the next (or previous) one when `first` (`last`) runs
      // past it. From the top, one upstream page (100) holds any `first` (at most 100).
      return args.after != null || args.before != null ? 2 : 1;
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

/** The types whose `activity(first: n)` is read for a page of items at once. */
const ITEM_HEAD_TYPES = new Set(['DestinationConfig', 'HogFunction', 'BatchExport']);

/** An item's `activity(first: n)` from the top, where the upstream serves several items' at once. */
const isItemHead = (walk: Walk, typeName: string, fieldName: string, args: Args) =>
  walk.itemHeadsBatched &&
  fieldName === 'activity' &&
  ITEM_HEAD_TYPES.has(typeName) &&
  typeof args.first === 'number' &&
  args.first > 0 &&
  args.after == null &&
  args.before == null &&
  args.last == null;

/** An entry's config, read with the other entries' configs in one batch (not retrieved alone). */
const isBatchedCrossLink = (walk: Walk, typeName: string, node: FieldNode) =>
  typeName === 'ActivityLogEntry' &&
  // A hog function list is read whole (`full=true`): its cross-links are always batched.
  (node.name.value === 'hogFunction' ||
    node.name.value === 'batchExport' ||
    (node.name.value === 'destinationConfig' &&
      !selects(node.selectionSet, FIELDS_LISTS_LACK, walk.fragments)));

function fieldEstimate(
  walk: Walk,
  parent: GraphQLObjectType,
  node: FieldNode,
  underProjects: boolean,
  path: string,
): Estimate {
  const name = node.name.value;
  if (name.startsWith('__')) return ZERO;
  const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[name];
  if (!field) return ZERO;
  let args: Args = {};
  try {
    args = getArgumentValues(field, node, walk.variables);
  } catch {
    // Invalid arguments fail validation or execution on their own; count the defaults.
  }
  const here = `${path}${path ? '.' : ''}${node.alias?.value ?? name}`;
  const below = node.selectionSet
    ? selectionEstimate(
        walk,
        getNamedType(field.type),
        node.selectionSet,
        underProjects || name === 'projects',
        here,
      )
    : ZERO;
  if (isBatchedCrossLink(walk, parent.name, node)) {
    return { cost: 1 + below.cost, upstreamCalls: below.upstreamCalls, links: 1 + below.links };
  }
  if (isItemHead(walk, parent.name, name, args)) {
    // An item's newest entries, read with the page's other items' (loaders/activity-heads.ts).
    const size = args.first as number;
    return {
      cost: 1 + size * below.cost,
      upstreamCalls: size * below.upstreamCalls,
      links: 1 + size * below.links,
    };
  }
  const own = callsOf(walk, parent.name, name, args, underProjects);
  const multiplier = multiplierOf(parent.name, name, args, walk.sizes?.get(node));
  const estimate = {
    cost: 1 + multiplier * below.cost,
    upstreamCalls: own + multiplier * below.upstreamCalls,
    links: multiplier * below.links,
  };
  // The items of one list resolve together: their cross-links are one batch.
  if (multiplier > 1 || CONNECTIONS.has(`${parent.name}.${name}`)) {
    estimate.upstreamCalls += batchCalls(estimate.links);
    estimate.links = 0;
  }
  if (walk.sites && CONNECTIONS.has(`${parent.name}.${name}`))
    recordSite(walk.sites, node, here, args, estimate);
  return estimate;
}

/** Keeps the costliest pricing of a connection (a fragment may put it at several places). */
function recordSite(
  sites: Map<FieldNode, ConnectionSite>,
  node: FieldNode,
  path: string,
  args: Args,
  e: Estimate,
) {
  const known = sites.get(node);
  if (known && known.upstreamCalls >= e.upstreamCalls && known.cost >= e.cost) return;
  const argument = args.last != null && args.first == null ? 'last' : 'first';
  const size = ((args.first ?? args.last ?? DEFAULT_PAGE_SIZE) as number) || 0;
  sites.set(node, { node, path, argument, size, cost: e.cost, upstreamCalls: e.upstreamCalls });
}

function selectionEstimate(
  walk: Walk,
  type: ReturnType<typeof getNamedType>,
  selectionSet: SelectionSetNode,
  underProjects: boolean,
  path: string,
  visiting = new Set<string>(),
): Estimate {
  // An abstract type (Node) counts as the costliest of its object types.
  if (isAbstractType(type)) {
    let worst: Estimate = ZERO;
    for (const possible of walk.schema.getPossibleTypes(type)) {
      const estimate = selectionEstimate(walk, possible, selectionSet, underProjects, path, visiting);
      if (estimate.upstreamCalls > worst.upstreamCalls || estimate.cost > worst.cost) worst = estimate;
    }
    return worst;
  }
  if (!isObjectType(type)) return ZERO;
  const total: Estimate = { cost: 0, upstreamCalls: 0, links: 0 };
  const add = (e: Estimate) => {
    total.cost += e.cost;
    total.upstreamCalls += e.upstreamCalls;
    total.links += e.links;
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      add(fieldEstimate(walk, type, selection, underProjects, path));
      continue;
    }
    const condition =
      selection.kind === Kind.INLINE_FRAGMENT
        ? selection.typeCondition?.name.value
        : walk.fragments.get(selection.name.value)?.typeCondition.name.value;
    if (condition && condition !== type.name && !type.getInterfaces().some((i) => i.name === condition))
      continue;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      add(selectionEstimate(walk, type, selection.selectionSet, underProjects, path, visiting));
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      add(selectionEstimate(walk, type, fragment.selectionSet, underProjects, path, visiting));
      visiting.delete(name);
    }
  }
  return total;
}

/** The operation's figures with some connections priced at other sizes; sites recorded when asked. */
export function priceOperation(
  walk: Walk,
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
): { cost: number; upstreamCalls: number } {
  const estimate = selectionEstimate(walk, root, selectionSet, false, '');
  return { cost: estimate.cost, upstreamCalls: estimate.upstreamCalls + batchCalls(estimate.links) };
}

export type { Walk as PricingWalk };

/** The estimator of a gateway whose upstream is as `features` says (loaders/upstream-features.ts). */
export function estimatorFor(features: UpstreamFeatures): EstimateOperation {
  const estimator: EstimateOperation = (schema, document, operation, rawVariables) =>
    // Until the upstream is known to route advanced_activity_logs, each item's activity is a call.
    estimate(schema, document, operation, rawVariables, features.advancedActivityLogs === true);
  estimator.cacheTag = () => String(features.advancedActivityLogs);
  return estimator;
}

/** The estimator of an upstream whose routes are not known yet. */
export const estimateOperation: EstimateOperation = (schema, document, operation, rawVariables) =>
  estimate(schema, document, operation, rawVariables, true);

function estimate(
  schema: GraphQLSchema,
  document: Parameters<EstimateOperation>[1],
  operation: Parameters<EstimateOperation>[2],
  rawVariables: Parameters<EstimateOperation>[3],
  itemHeadsBatched: boolean,
): ReturnType<EstimateOperation> {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Bad variables fail execution on their own, before any resolver runs.
  if (coerced.errors) return null;
  const variables = coerced.coerced;
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return { cost: 0, upstreamCalls: 0 };
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const walk: Walk = {
    schema,
    fragments,
    variables,
    isMutation: operation.operation === 'mutation',
    itemHeadsBatched,
  };
  const figures = priceOperation(walk, root, operation.selectionSet);
  return {
    ...figures,
    advise: (measure, limit) => adviseOn(walk, root, operation.selectionSet, measure, limit),
  };
}
