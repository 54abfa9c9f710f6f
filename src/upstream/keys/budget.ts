// One upstream budget per key: at most UPSTREAM_BUDGET_PER_MINUTE requests in any 60 s and
// UPSTREAM_BUDGET_PER_HOUR in any hour per key hash (PostHog's defaults: 480 and 4,800), counted
// as PostHog counts them (sliding-window.ts). A call over the budget waits for room within its
// request's deadline, or fails RATE_LIMITED before it is sent; a 429's Retry-After pauses the key.
//
// Alone, a process counts its own calls. Sharing a Redis (shared-state/shared-budget.ts), the
// processes count together without a Redis round trip per call: a process takes permits in
// slices (about a second's worth of the budget), spends them locally, and gives back what it has
// not spent when the slice lapses (SLICE_MS). A pause reaches every process. While Redis answers,
// however slowly, permits come only from it: a call waits for its slice (within its deadline), so
// the processes together never admit more than the limits in any window. Redis lost: the process
// counts alone with its share of the budget (÷ the processes last seen), and tells Redis what it
// admitted so once it answers again; the workers of WORKERS > 1 without Redis each keep to their
// share (÷ WORKERS) from the start.
//
// Only calls sent count: a call admitted that then never goes (its client left while it waited
// for a connection, its deadline passed) is given back (`refund`), so a backlog of calls that time
// out in line does not spend the key's budget for the calls after it.
import type { KeyHash } from '../../core/caller-key.ts';
import { codedError } from '../../errors/codes.ts';
import { type RequestSignal, sleep } from '../request-signal.ts';
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
}

/** How long a slice's permits may be spent; what is left then is given back. */
export const SLICE_MS = 1_000;
/** How often a call waiting for a shared slice asks again. */
const RETRY_SLICE_MS = 250;
/**
 * The longest a slice's permits are spent after its request was sent: SLICE_MS from its grant,
 * and never past the source's silence (a request unanswered that long loses the connection) and
 * SLICE_MS more; a grant that comes later goes back unspent. Redis counts a slice this much
 * longer than the window (shared-budget.ts), so a permit spent late is still counted in every
 * window it falls in.
 */
const sliceLifetimeMs = (source: SliceSource) => source.silentAfterMs + SLICE_MS;
/**
 * Keys counted at once; past it the counts of the key used least recently are dropped, unless it
 * is paused or waiting for a slice (its pause or its refill would be lost): those are kept, and
 * the next idle one goes. Invented keys (each a 401 upstream) so never end a real key's pause.
 */
export const MAX_KEYS = 10_000;

/** Permits Redis counted at `at` (its clock), spent here until they lapse. */
interface Slice {
  left: number;
  expires: number;
  at: number;
  /** What was left of it has gone back to Redis: a permit refunded later goes there too. */
  lapsed: boolean;
}

/**
 * How an admitted call was counted, for `refund`: a permit of a shared slice, or the instant it
 * was counted at in this process's windows.
 */
export type Counted = Slice | number;

interface KeyState {
  minute: SlidingWindow;
  hour: SlidingWindow;
  pausedUntil: number;
  slice: Slice;
  refilling: Promise<number | null> | null;
  /** Calls admitted alone (Redis lost) that Redis has not been told of yet. */
  spentAlone: number;
}

/** The shared count did not answer before the call's deadline: nothing was sent. */
const budgetUnanswered = () =>
  codedError('RATE_LIMITED', 'The shared upstream budget did not answer in time; try again in 1 s.', {
    retryAfter: 1,
    budget: true,
  });

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

  /** Told of each admission: the key and the instant (Date.now()) the budget counted it at. */
  private admitted: ((key: KeyHash, at: number) => void) | null = null;

  /** `listener` hears every admission from now on, with the instant the budget counted it at. */
  onAdmitted(listener: (key: KeyHash, at: number) => void): void {
    this.admitted = listener;
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
   * Whether a call of `key` may go now: what it was counted as if it may, or a promise that
   * settles with that when it may (undefined: the signal aborted first, nothing counted), or
   * rejects with RATE_LIMITED when it may not before `deadline`.
   */
  admit(key: KeyHash, deadline: number, signal: RequestSignal): Counted | Promise<Counted | undefined> {
    const state = this.stateOf(key);
    const now = Date.now();
    if (state.pausedUntil > now) return this.waitThenAdmit(key, state.pausedUntil - now, deadline, signal);
    if (this.source?.healthy) {
      const { slice } = state;
      if (slice.left > 0 && slice.expires > now) {
        slice.left--;
        this.admitted?.(key, now);
        return slice;
      }
      return this.refillWithin(key, state, deadline).then((granted) =>
        // Aborted while Redis was asked: nothing is counted, and nothing will be sent.
        signal.aborted
          ? undefined
          : // null: Redis answered with an error (or is lost): counted alone, reported back later.
            granted === null
            ? this.admitAlone(key, state, deadline, signal)
            : granted
              ? this.admit(key, deadline, signal)
              : this.waitThenAdmit(key, RETRY_SLICE_MS, deadline, signal),
      );
    }
    return this.admitAlone(key, state, deadline, signal);
  }

  /** The key's refill, or RATE_LIMITED (nothing counted) when it has not come by `deadline`. */
  private refillWithin(key: KeyHash, state: KeyState, deadline: number): Promise<number | null> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(budgetUnanswered()), Math.max(0, deadline - Date.now()));
      void this.refill(key, state).then((granted) => {
        clearTimeout(timer);
        resolve(granted);
      });
    });
  }

  /** A call that admit counted and that was then never sent: what it counted is given back. */
  refund(key: KeyHash, counted: Counted): void {
    if (typeof counted === 'number') {
      // Not stateOf: a refund makes no key recent, and a key dropped meanwhile has no counts left.
      const state = this.keys.get(key);
      state?.minute.remove(counted);
      state?.hour.remove(counted);
    } else if (!counted.lapsed) counted.left++;
    else this.source?.giveBack(key, 1, counted.at);
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
  ): Counted | Promise<Counted | undefined> {
    const now = Date.now();
    const share = this.source?.peers ?? this.processes;
    const { perMinute, perHour } = this.limits;
    const full = (window: SlidingWindow, limit: number) =>
      limit > 0 && window.count(now) >= Math.max(1, Math.floor(limit / share));
    const minuteFull = full(state.minute, perMinute);
    if (!minuteFull && !full(state.hour, perHour)) {
      state.minute.add(now);
      state.hour.add(now);
      if (this.source) state.spentAlone++;
      this.admitted?.(key, now);
      return now;
    }
    const waitMs = (minuteFull ? state.minute : state.hour).msUntilRoom(now);
    return this.waitThenAdmit(key, waitMs, deadline, signal);
  }

  private async waitThenAdmit(
    key: KeyHash,
    waitMs: number,
    deadline: number,
    signal: RequestSignal,
  ): Promise<Counted | undefined> {
    if (Date.now() + waitMs >= deadline) throw overBudget(waitMs);
    await sleep(waitMs, signal);
    // Aborted meanwhile: the client says why (stopped()), and sends nothing.
    if (signal.aborted) return undefined;
    return this.admit(key, deadline, signal);
  }

  /**
   * One slice request per key at a time, however long Redis takes (null: it cannot say); the
   * slice's leftovers go back when it lapses. A grant come a slice's lifetime after its request
   * was sent goes back unspent (0).
   */
  private refill(key: KeyHash, state: KeyState): Promise<number | null> {
    if (state.refilling) return state.refilling;
    const source = this.source!;
    const sentAt = Date.now();
    const spentAlone = state.spentAlone;
    state.spentAlone = 0;
    const lifetimeMs = sliceLifetimeMs(source);
    state.refilling = source
      .takeSlice(key, this.sliceSize, this.limits, spentAlone, lifetimeMs)
      .then((taken) => {
        state.refilling = null;
        if (taken === null) {
          state.spentAlone += spentAlone;
          return null;
        }
        const expires = Math.min(Date.now() + SLICE_MS, sentAt + lifetimeMs);
        if (taken.granted > 0 && expires <= Date.now()) {
          source.giveBack(key, taken.granted, taken.at);
          return 0;
        }
        if (taken.granted > 0) state.slice = this.sliceOf(key, taken.granted, taken.at, expires);
        return taken.granted;
      });
    return state.refilling;
  }

  /** A slice of `granted` permits, whose leftovers go back to Redis when it lapses at `expires`. */
  private sliceOf(key: KeyHash, granted: number, at: number, expires: number): Slice {
    const slice: Slice = { left: granted, expires, at, lapsed: false };
    setTimeout(() => {
      if (slice.left > 0) this.source?.giveBack(key, slice.left, at);
      slice.left = 0;
      slice.lapsed = true;
    }, expires - Date.now()).unref();
    return slice;
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
        slice: { left: 0, expires: 0, at: 0, lapsed: true },
        refilling: null,
        spentAlone: 0,
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
