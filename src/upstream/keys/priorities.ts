// The classes of a key's calls, and the reserve (UPSTREAM_BUDGET_RESERVE_PERCENT) no class
// spends: that part of each window is left for the key's owner's own use of PostHog. Interactive
// calls (queries, writes, a subscription's fields) may spend a window up to its reserve; pollers
// (the activity poller, a `@live` query's re-runs) only up to twice the reserve, so that a flood
// of them leaves room for interactive work. As a key's budget tightens, pollers wait longer
// between rounds (pollerSlowdown). A reserve of 0 treats every call alike.
import type { BudgetLimits } from './budget.ts';
import type { BudgetLeft } from './budget-left.ts';
import type { KeyState } from './key-states.ts';
import { type SliceHolder, spentSlice } from './slices.ts';

/** Who a call is for: a caller waiting on it, or a poller that can wait. */
export type CallPriority = 'interactive' | 'poller';

/** The longest a poller's interval grows: this many times its setting. */
export const MAX_SLOWDOWN = 8;

/** Calls of `limit` held back for the key's owner (0: the window is off, or no reserve). */
export const reserveOf = (limit: number, percent: number): number =>
  limit > 0 ? Math.ceil((limit * percent) / 100) : 0;

/**
 * The part of each window a class may spend: the limit less the reserve (interactive) or less
 * twice the reserve (pollers); at least one call, and 0 (no limit) stays 0.
 */
export function usableLimits(limits: BudgetLimits, percent: number, priority: CallPriority): BudgetLimits {
  if (percent === 0) return limits;
  const held = priority === 'poller' ? 2 : 1;
  const usable = (limit: number) => (limit === 0 ? 0 : Math.max(1, limit - held * reserveOf(limit, percent)));
  return { perMinute: usable(limits.perMinute), perHour: usable(limits.perHour) };
}

/** The slices a class counts from: pollers' own while there is a reserve (taken within their part). */
export function holderOf(state: KeyState, priority: CallPriority, percent: number): SliceHolder {
  if (priority === 'interactive' || percent === 0) return state;
  state.pollers ??= { slice: spentSlice(), refilling: null, spentAlone: 0 };
  return state.pollers;
}

/**
 * How many times its setting a poller waits now, from what interactive calls have left (`left`,
 * read as every process reads it: from Redis when shared): 1 while each window has half its
 * usable part left, then twice as long for each halving, up to MAX_SLOWDOWN.
 */
export function pollerSlowdown(left: BudgetLeft | null): number {
  let fraction = 1;
  for (const window of [left?.minute, left?.hour]) {
    if (window && window.limit > 0) fraction = Math.min(fraction, window.remaining / window.limit);
  }
  let slowdown = 1;
  while (slowdown < MAX_SLOWDOWN && fraction < 0.5 / slowdown) slowdown *= 2;
  return slowdown;
}
