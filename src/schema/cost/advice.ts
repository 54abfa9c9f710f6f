// What a refused operation could change to fit (QUERY_TOO_COMPLEX's advice): the connection whose
// items cost most, and the largest `first` (or `last`) there with which the whole operation fits,
// found by pricing it again at smaller sizes (a binary search: the price grows with the size).
import { type FieldNode, type GraphQLObjectType, Kind, type SelectionSetNode } from 'graphql';
import type { CostliestField, LimitAdvice } from '../../limits/estimate.ts';
import { type PricingWalk, priceOperation } from './estimate.ts';
import type { ConnectionSite } from './price.ts';

export function adviseOn(
  walk: PricingWalk,
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  measure: 'cost' | 'upstreamCalls',
  limit: number,
): LimitAdvice | null {
  const sites = new Map<FieldNode, ConnectionSite>();
  priceOperation({ ...walk, sites }, root, selectionSet);
  const costliest = [...sites.values()].sort((a, b) => b[measure] - a[measure]);
  const fitsAt = (site: ConnectionSite, size: number) =>
    priceOperation({ ...walk, sizes: new Map([[site.node, size]]) }, root, selectionSet)[measure] <= limit;
  for (const site of costliest) {
    if (site.size <= 1 || !fitsAt(site, 1)) continue;
    let low = 1;
    let high = site.size - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fitsAt(site, mid)) low = mid;
      else high = mid - 1;
    }
    return { path: site.path, argument: site.argument, size: site.size, fits: low };
  }
  const top = costliest[0];
  return top ? { path: top.path, argument: top.argument, size: top.size, fits: null } : null;
}

/**
 * Where most of an operation's upstream calls are: the connection whose items make the most (the
 * one to page smaller), else the root field that makes the most; null when nothing calls.
 */
export function costliestOf(
  walk: PricingWalk,
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
): CostliestField | null {
  const sites = new Map<FieldNode, ConnectionSite>();
  priceOperation({ ...walk, sites }, root, selectionSet);
  let best: CostliestField | null = null;
  for (const site of sites.values()) {
    if (site.upstreamCalls > (best?.calls ?? 0)) best = { path: site.path, calls: site.upstreamCalls };
  }
  if (best) return best;
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const alone = { ...selectionSet, selections: [selection] };
    const calls = priceOperation({ ...walk, currentLookup: 0 }, root, alone).upstreamCalls;
    if (calls > (best?.calls ?? 0)) best = { path: selection.alias?.value ?? selection.name.value, calls };
  }
  return best;
}
