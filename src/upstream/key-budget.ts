// One upstream budget per key: at most UPSTREAM_BUDGET_PER_MINUTE requests in any 60 s and
// UPSTREAM_BUDGET_PER_HOUR in any hour per key hash (PostHog's defaults: 480 and 4,800), counted
// as PostHog counts them (sliding-window.ts). A call over the budget waits for room within its
// request's deadline, or fails RATE_LIMITED before it is sent; a 429's Retry-After pauses the key.
//
// Alone, a process counts its own calls. Sharing a Redis (shared-state/shared-budget.ts), the
// processes count together without a Redis round trip per call: a process takes permits in
// slices (about a second's worth of the budget), spends them locally, and gives back what it has
// not spent when the slice lapses (SLICE_MS). A pause reaches every process. Redis lost: each
// process falls back to counting alone with its share of the budget (÷ the processes last seen);
// the workers of WORKERS > 1 without Redis each keep to their share (÷ WORKERS) from the start.
import type { KeyHash } from '../caller-key.ts';
import { codedError } from '../errors/codes.ts';
import { type RequestSignal, sleep } from './request-signal.ts';
import { SlidingWindow } from './sliding-window.ts';

export interface BudgetLimits {
  /** 0: no limit per minute. */
  perMinute: number;
  /** 0: no limit per hour. */
  perHour: number;
}

/** Where shared permits come from (Redis). */
export interface SliceSource {
  readonly healthy: boolean;
  /** Processes sharing the budget, this one included. */
  readonly peers: number;
  /** Up to `want` permits counted for `key` now; 0 when it has none left; null when Redis cannot say. */
  takeSlice(key: KeyHash, want: number, limits: BudgetLimits): Promise<number | null>;
  /** Permits of a slice taken at `takenAt` that were not spent. */
  giveBack(key: KeyHash, permits: number, takenAt: number): void;
  /** Tells every other process that `key` is paused until `untilMs`. */
  pause(key: KeyHash, untilMs: number): void;
}

/** How long a slice's permits may be spent; what is left then is given back. */
export const SLICE_MS = 1_000;
/** How often a call waiting for a shared slice asks again. */
const RETRY_SLICE_MS = 250;
/**
 * Keys counted at once; past it the counts of the key used least recently are dropped, unless it
 * is paused or waiting for a slice (its pause or its refill would be lost): those are kept, and
 * the next idle one goes. Invented keys (each a 401 upstream) so never end a real key's pause.
 */
export const MAX_KEYS = 10_000;

interface KeyState {
  minute: SlidingWindow;
  hour: SlidingWindow;
  pausedUntil: number;
  slice: { left: number; expires: number; takenAt: number };
  refilling: Promise<number | null> | null;
}

const overBudget = (waitMs: number) =>
  codedError(
    'RATE_LIMITED',
    `This key has used its upstream budget; try again in ${Math.ceil(waitMs / 1000)} s.`,
    { retryAfter: Math.ceil(waitMs / 1000), budget: true },
  );

export class KeyBudget {
  private readonly keys = new Map<KeyHash, KeyState>();
  /** The key stateOf saw last, which it left as the map's last entry. */
  private lastKey: KeyHash | null = null;
  /** About a second's worth of the tighter limit. */
  private readonly sliceSize: number;

  /**
   * `processes`: how many processes share the budget without a Redis to count it together (the
   * workers of WORKERS > 1): each then keeps to its share.
   */
  constructor(
    private readonly limits: BudgetLimits,
    private readonly processes = 1,
    private source: SliceSource | null = null,
  ) {
    const perSecond = Math.min(limits.perMinute / 60 || Infinity, limits.perHour / 3600 || Infinity);
    this.sliceSize = Math.max(1, Math.ceil(Number.isFinite(perSecond) ? perSecond : 1));
  }

  /** From now on the budget is shared through `source`. */
  shareThrough(source: SliceSource): void {
    this.source = source;
  }

  /** No call counted is ever refused: both limits off. */
  get off(): boolean {
    return this.limits.perMinute === 0 && this.limits.perHour === 0;
  }

  /**
   * Whether a call of `key` may go now: null if it may (counted), or a promise that settles when
   * it may, or rejects with RATE_LIMITED when it may not before `deadline`.
   */
  admit(key: KeyHash, deadline: number, signal: RequestSignal): null | Promise<void> {
    const state = this.stateOf(key);
    const now = Date.now();
    if (state.pausedUntil > now) return this.waitThenAdmit(key, state.pausedUntil - now, deadline, signal);
    if (this.source?.healthy) {
      const { slice } = state;
      if (slice.left > 0 && slice.expires > now) {
        slice.left--;
        return null;
      }
      return this.refill(key, state).then((granted) =>
        granted === null
          ? (this.admitAlone(key, state, deadline, signal) ?? undefined)
          : granted > 0
            ? (this.admit(key, deadline, signal) ?? undefined)
            : this.waitThenAdmit(key, RETRY_SLICE_MS, deadline, signal),
      );
    }
    return this.admitAlone(key, state, deadline, signal);
  }

  /** A 429 with Retry-After: no call of this key for `ms`, here and (shared) everywhere. */
  pause(key: KeyHash, ms: number): void {
    const until = Date.now() + ms;
    this.pausedHere(key, until);
    this.source?.pause(key, until);
  }

  /** Another process was told to pause `key`. */
  pausedHere(key: KeyHash, untilMs: number): void {
    const state = this.stateOf(key);
    state.pausedUntil = Math.max(state.pausedUntil, untilMs);
  }

  /** Counting alone: the whole budget, or this process's share of it when Redis is lost. */
  private admitAlone(
    key: KeyHash,
    state: KeyState,
    deadline: number,
    signal: RequestSignal,
  ): null | Promise<void> {
    const now = Date.now();
    const share = this.source?.peers ?? this.processes;
    const { perMinute, perHour } = this.limits;
    const full = (window: SlidingWindow, limit: number) =>
      limit > 0 && window.count(now) >= Math.max(1, Math.floor(limit / share));
    const minuteFull = full(state.minute, perMinute);
    if (!minuteFull && !full(state.hour, perHour)) {
      state.minute.add(now);
      state.hour.add(now);
      return null;
    }
    const waitMs = (minuteFull ? state.minute : state.hour).msUntilRoom(now);
    return this.waitThenAdmit(key, waitMs, deadline, signal);
  }

  private async waitThenAdmit(
    key: KeyHash,
    waitMs: number,
    deadline: number,
    signal: RequestSignal,
  ): Promise<void> {
    if (Date.now() + waitMs >= deadline) throw overBudget(waitMs);
    await sleep(waitMs, signal);
    // Aborted meanwhile: the client says why (stopped()), and sends nothing.
    if (signal.aborted) return;
    const again = this.admit(key, deadline, signal);
    if (again) await again;
  }

  /** One slice request per key at a time; the slice's leftovers go back when it lapses. */
  private refill(key: KeyHash, state: KeyState): Promise<number | null> {
    if (state.refilling) return state.refilling;
    const source = this.source!;
    const takenAt = Date.now();
    state.refilling = source.takeSlice(key, this.sliceSize, this.limits).then((granted) => {
      state.refilling = null;
      if (granted === null || granted === 0) return granted;
      const slice = { left: granted, expires: Date.now() + SLICE_MS, takenAt };
      state.slice = slice;
      setTimeout(() => {
        if (slice.left > 0) source.giveBack(key, slice.left, takenAt);
        slice.left = 0;
      }, SLICE_MS).unref();
      return granted;
    });
    return state.refilling;
  }

  /** Keys counted now (at most MAX_KEYS). */
  get size(): number {
    return this.keys.size;
  }

  private stateOf(key: KeyHash): KeyState {
    let state = this.keys.get(key);
    if (state) {
      // Most recently used last: the first entry is the first to drop. A key used again right
      // after itself (every call of one operation) is last already: moving it again only
      // churned the map's table, a rehash every few hundred calls.
      if (key !== this.lastKey) {
        this.keys.delete(key);
        this.keys.set(key, state);
      }
    } else {
      if (this.keys.size >= MAX_KEYS) this.dropOne();
      state = {
        minute: new SlidingWindow(60_000),
        hour: new SlidingWindow(3_600_000),
        pausedUntil: 0,
        slice: { left: 0, expires: 0, takenAt: 0 },
        refilling: null,
      };
      this.keys.set(key, state);
    }
    this.lastKey = key;
    return state;
  }

  /**
   * Drops the least recently used key that is neither paused nor refilling. One that is goes to
   * the back instead (so the next drop does not look at it again); if every key is, the least
   * recently used goes all the same: the bound holds whatever the keys do.
   */
  private dropOne(): void {
    const now = Date.now();
    for (let looked = 0; looked < this.keys.size; looked++) {
      const [key, state] = this.keys.entries().next().value!;
      this.keys.delete(key);
      if (state.pausedUntil <= now && state.refilling === null) return;
      this.keys.set(key, state);
    }
    this.keys.delete(this.keys.keys().next().value!);
  }
}
