// What is left of a key's budget in each window, read without spending: what a caller is shown
// (extensions.cost, the RateLimit fields, a dry run). Counted as the budget counts (a window's
// oldest slot whole), so `remaining` is never above what the budget would admit.
import type { KeyHash } from '../../core/caller-key.ts';
import type { BudgetLimits } from './budget.ts';
import type { KeyState } from './key-states.ts';
import type { SlidingWindow } from './sliding-window.ts';

export interface WindowLeft {
  /** The window's limit (UPSTREAM_BUDGET_PER_MINUTE or _PER_HOUR). */
  limit: number;
  /** Calls the key may still make in the window now. */
  remaining: number;
  /** Seconds until the oldest call counted leaves the window (room comes back); 0: none counted. */
  resetSeconds: number;
}

/** The windows with a limit (a window set to 0 is absent). */
export interface BudgetLeft {
  minute?: WindowLeft;
  hour?: WindowLeft;
}

/** Calls counted in a window, and the seconds until the oldest of them leaves it. */
export interface WindowCount {
  count: number;
  resetSeconds: number;
}

export interface BudgetCounts {
  minute: WindowCount;
  hour: WindowCount;
}

/** Reads a key's shared counts (Redis) without taking anything; null: it cannot say. */
export type CountSource = (key: KeyHash, lifetimeMs: number) => Promise<BudgetCounts | null>;

const windowCount = (window: SlidingWindow | undefined, now: number): WindowCount => {
  const count = window?.count(now) ?? 0;
  return { count, resetSeconds: count > 0 ? Math.ceil(window!.msUntilRoom(now) / 1000) : 0 };
};

/** This process's own counts of a key (none when it is not counted here). */
export const localCounts = (state: KeyState | undefined, now: number): BudgetCounts => ({
  minute: windowCount(state?.minute, now),
  hour: windowCount(state?.hour, now),
});

/**
 * The budget left: each window's limit (÷ `share`, the processes counting alone) less what is
 * counted, plus `unspent` permits this process holds counted but not sent; a paused key (a 429's
 * Retry-After) has none left until the pause ends.
 */
export function leftOf(
  counts: BudgetCounts,
  limits: BudgetLimits,
  options: { share: number; unspent: number; pausedMs: number },
): BudgetLeft {
  const left: BudgetLeft = {};
  const window = (limit: number, counted: WindowCount): WindowLeft => {
    const own = Math.max(1, Math.floor(limit / options.share));
    const remaining = Math.min(limit, Math.max(0, own - counted.count + options.unspent));
    if (options.pausedMs > 0) {
      const pause = Math.ceil(options.pausedMs / 1000);
      return { limit, remaining: 0, resetSeconds: Math.max(pause, counted.resetSeconds) };
    }
    return { limit, remaining, resetSeconds: counted.resetSeconds };
  };
  if (limits.perMinute > 0) left.minute = window(limits.perMinute, counts.minute);
  if (limits.perHour > 0) left.hour = window(limits.perHour, counts.hour);
  return left;
}

/** Per window, the fewest calls left to any key; absent: no key read within the window. */
export interface FewestLeft {
  minute?: number;
  hour?: number;
}

/**
 * The fewest calls any of `states` had left in each window as last read (a key's `left`, which
 * every answer to it and every round of its pollers reads), among keys read within that window:
 * the key nearest its limit, with no key named. Read from what each key's `left` saw, so shared
 * counts (Redis) are as every process sees them.
 */
export function fewestRecent(states: Iterable<KeyState>, now: number): FewestLeft {
  const fewest: FewestLeft = {};
  for (const { lastLeft } of states) {
    if (!lastLeft) continue;
    const age = now - lastLeft.at;
    const { minute, hour } = lastLeft.left;
    if (minute && age < 60_000) fewest.minute = Math.min(fewest.minute ?? Infinity, minute.remaining);
    if (hour && age < 3_600_000) fewest.hour = Math.min(fewest.hour ?? Infinity, hour.remaining);
  }
  return fewest;
}

/** The fewest calls any window has left; Infinity when no window has a limit. */
export const fewestLeft = (left: BudgetLeft | null): number =>
  Math.min(left?.minute?.remaining ?? Infinity, left?.hour?.remaining ?? Infinity);
