// The cost of an operation and the most upstream requests it may cause, computed from the
// document and its variables before anything runs: the schema's estimator, handed to the limits
// plugin (limits/index.ts) by app.ts. Each field declares its own price where it is defined
// (price.ts's `priced`, in its `extensions`); a field that declares none makes no call.
//
// Cost: every field costs 1, and a field that returns many items (a connection's `first` or
// `last`, 20 when neither is given; `nodes`' ids; a bounded list) multiplies the cost of what is
// under it. Upstream calls: the same walk, counting the requests each field makes as the loaders
// really make them: a page of the activity log may continue into the next page; a config read
// from a list may need a retrieve for `pluginInfo`; and an entry's `destinationConfig` is not a
// call per entry but one batch per page of entries (loaders/destination-configs/configs.ts: distinct ids, list pages of 100
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
import type { EstimateOperation, OperationEstimate } from '../../limits/estimate.ts';
import type { UpstreamFeatures } from '../../loaders/upstream-features.ts';
import { DEFAULT_PAGE_SIZE } from '../connections/connection.ts';
import { adviseOn, costliestOf } from './advice.ts';
import {
  type Args,
  type ConnectionSite,
  callsAt,
  type FieldPrice,
  type PriceSite,
  priceOf,
  type Walk,
} from './price.ts';
import { batchCalls, currentProjectLookup, isItemHead } from './rules.ts';

/** A walk's result: also the cross-links still to batch (per item of the nearest list above). */
interface Estimate extends OperationEstimate {
  links: number;
}

const ZERO: Estimate = { cost: 0, upstreamCalls: 0, links: 0 };

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
  const price = priceOf(field);
  const site: PriceSite = { args, node, walk, underProjects };
  if (price?.batched?.(site)) {
    return { cost: 1 + below.cost, upstreamCalls: below.upstreamCalls, links: 1 + below.links };
  }
  if (price?.itemHead && isItemHead(walk, args)) {
    // An item's newest entries, read with the page's other items' (loaders/activity/heads.ts).
    const size = args.first as number;
    return {
      cost: 1 + size * below.cost,
      upstreamCalls: size * below.upstreamCalls,
      links: 1 + size * below.links,
    };
  }
  const own = callsAt(price, site);
  const multiplier = sizeOf(price?.list, args, walk.sizes?.get(node));
  const estimate = {
    cost: 1 + multiplier * below.cost,
    upstreamCalls: own + multiplier * below.upstreamCalls,
    links: multiplier * below.links,
  };
  const connection = price?.list !== undefined && 'connection' in price.list;
  // The items of one list resolve together: their cross-links are one batch.
  if (multiplier > 1 || connection) {
    estimate.upstreamCalls += batchCalls(estimate.links);
    estimate.links = 0;
  }
  if (walk.sites && connection) recordSite(walk.sites, node, here, args, estimate);
  return estimate;
}

/** How many items a field returns at most (1 when it is no list); what is under it counts that many times. */
function sizeOf(list: FieldPrice['list'], args: Args, override?: number): number {
  if (list === undefined) return 1;
  if ('connection' in list) {
    const size = override ?? ((args.first ?? args.last ?? DEFAULT_PAGE_SIZE) as number);
    return Math.max(0, size);
  }
  return 'of' in list ? list.of(args) : list.assumed;
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
  const upstreamCalls = estimate.upstreamCalls + batchCalls(estimate.links) + walk.currentLookup;
  return { cost: estimate.cost, upstreamCalls };
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
    currentLookup: currentProjectLookup(operation, fragments, variables),
  };
  const figures = priceOperation(walk, root, operation.selectionSet);
  return {
    ...figures,
    advise: (measure, limit) => adviseOn(walk, root, operation.selectionSet, measure, limit),
    costliest: () => costliestOf(walk, root, operation.selectionSet),
  };
}
