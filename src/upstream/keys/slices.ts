// Permits taken from a shared count (Redis) in slices: about a second's worth of the budget,
// spent locally, and what is left given back when the slice lapses (SLICE_MS). A call waiting for
// a slice waits within its deadline, so the processes together never admit more than the limits
// in any window.
import type { KeyHash } from '../../core/caller-key.ts';
import type { BudgetLimits } from './budget.ts';
import type { CountSource } from './budget-left.ts';

/** Where shared permits come from (Redis). */
export interface SliceSource {
  readonly healthy: boolean;
  /** How long a request may go unanswered before the source is lost. */
  readonly silentAfterMs: number;
  /** Processes sharing the budget, this one included. */
  readonly peers: number;
  /**
   * Up to `want` permits counted for `key` now (`granted` 0: none left), counted at `at` by the
   * source's clock; `spentAlone` calls admitted meanwhile without it are counted first, whatever
   * room is left. null: Redis cannot say.
   */
  takeSlice(
    key: KeyHash,
    want: number,
    limits: BudgetLimits,
    spentAlone: number,
    lifetimeMs: number,
  ): Promise<{ granted: number; at: number } | null>;
  /** Permits of a slice counted at `at` (the source's clock) that were not spent. */
  giveBack(key: KeyHash, permits: number, at: number): void;
  /** Tells every other process that `key` is paused until `untilMs`. */
  pause(key: KeyHash, untilMs: number): void;
  /** The key's counts in each window, read without taking a permit (budget-left.ts). */
  counts?: CountSource;
}

/** How long a slice's permits may be spent; what is left then is given back. */
export const SLICE_MS = 1_000;

/**
 * The longest a slice's permits are spent after its request was sent: SLICE_MS from its grant,
 * and never past the source's silence (a request unanswered that long loses the connection) and
 * SLICE_MS more; a grant that comes later goes back unspent. Redis counts a slice this much
 * longer than the window (shared-budget.ts), so a permit spent late is still counted in every
 * window it falls in.
 */
export const sliceLifetimeMs = (source: SliceSource) => source.silentAfterMs + SLICE_MS;

/** Permits Redis counted at `at` (its clock), spent here until they lapse. */
export interface Slice {
  left: number;
  expires: number;
  at: number;
  /** What was left of it has gone back to Redis: a permit refunded later goes there too. */
  lapsed: boolean;
}

/** A key's slice and the request for its next one. */
export interface SliceHolder {
  slice: Slice;
  refilling: Promise<number | null> | null;
  /** Calls admitted alone (Redis lost) that Redis has not been told of yet. */
  spentAlone: number;
}

/** A slice with nothing left, lapsed: the first call of a key asks for a real one. */
export const spentSlice = (): Slice => ({ left: 0, expires: 0, at: 0, lapsed: true });

/**
 * One slice request per key at a time, however long Redis takes (null: it cannot say); the
 * slice's leftovers go back when it lapses. A grant come a slice's lifetime after its request
 * was sent goes back unspent (0).
 */
export function refill(
  source: SliceSource,
  key: KeyHash,
  holder: SliceHolder,
  want: number,
  limits: BudgetLimits,
): Promise<number | null> {
  if (holder.refilling) return holder.refilling;
  const sentAt = Date.now();
  const spentAlone = holder.spentAlone;
  holder.spentAlone = 0;
  const lifetimeMs = sliceLifetimeMs(source);
  holder.refilling = source.takeSlice(key, want, limits, spentAlone, lifetimeMs).then((taken) => {
    holder.refilling = null;
    if (taken === null) {
      holder.spentAlone += spentAlone;
      return null;
    }
    const expires = Math.min(Date.now() + SLICE_MS, sentAt + lifetimeMs);
    if (taken.granted > 0 && expires <= Date.now()) {
      source.giveBack(key, taken.granted, taken.at);
      return 0;
    }
    if (taken.granted > 0) holder.slice = sliceOf(source, key, taken.granted, taken.at, expires);
    return taken.granted;
  });
  return holder.refilling;
}

/** A slice of `granted` permits, whose leftovers go back to `source` when it lapses at `expires`. */
function sliceOf(source: SliceSource, key: KeyHash, granted: number, at: number, expires: number): Slice {
  const slice: Slice = { left: granted, expires, at, lapsed: false };
  setTimeout(() => {
    if (slice.left > 0) source.giveBack(key, slice.left, at);
    slice.left = 0;
    slice.lapsed = true;
  }, expires - Date.now()).unref();
  return slice;
}
