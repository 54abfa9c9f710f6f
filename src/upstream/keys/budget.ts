// One upstream budget per key: at most UPSTREAM_BUDGET_PER_MINUTE requests in any 60 s and
// UPSTREAM_BUDGET_PER_HOUR in any hour per key hash, counted as PostHog counts them
// (sliding-window.ts). A call over the budget waits for room within its request's deadline, or
// fails RATE_LIMITED before it is sent; a 429's Retry-After pauses the key.
//
// Alone, a process counts its own calls. Sharing a Redis (shared-state/shared-budget.ts), the
// processes count together without a Redis round trip per call, in slices (slices.ts). A pause
// reaches every process. While Redis answers, however slowly, permits come only from it. Redis
// lost: the process counts alone with its share of the budget (÷ the processes last seen), and
// tells Redis what it admitted so once it answers again; the workers of WORKERS > 1 without Redis
// each keep to their share (÷ WORKERS) from the start.
//
// Only calls sent count: a call admitted that then never goes (its client left while it waited
// for a connection, its deadline passed) is given back (`refund`), so a backlog of calls that time
// out in line does not spend the key's budget for the calls after it.
//
// Each call has a class (priorities.ts): no class spends the reserve, and pollers stop short of
// it by as much again, so that interactive calls and writes keep room.
import type { KeyHash } from '../../core/caller-key.ts';
import { codedError } from '../../errors/codes.ts';
import { type RequestSignal, sleep } from '../request-signal.ts';
import { type BudgetLeft, leftOf, localCounts } from './budget-left.ts';
import { type KeyState, KeyStates } from './key-states.ts';
import { type CallPriority, holderOf, pollerSlowdown, usableLimits } from './priorities.ts';
import { refill, type Slice, type SliceHolder, type SliceSource, sliceLifetimeMs } from './slices.ts';
import type { SlidingWindow } from './sliding-window.ts';

export interface BudgetLimits {
  /** 0: no limit per minute. */
  perMinute: number;
  /** 0: no limit per hour. */
  perHour: number;
  /** Percent of each window no call spends (priorities.ts); 0 or absent: none. */
  reservePercent?: number;
}

/** How often a call waiting for a shared slice asks again. */
const RETRY_SLICE_MS = 250;
/** How an admitted call was counted, for `refund`: a shared slice's permit, or its instant here. */
export type Counted = Slice | number;

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
  /** The keys counted; read by metrics (budget-left.ts's `fewestRecent`). */
  readonly keys = new KeyStates();
  /** About a second's worth of the tighter limit. */
  private readonly sliceSize: number;

  /**
   * `processes`: how many processes share the budget without a Redis to count it together (the
   * workers of WORKERS > 1): each then keeps to its share.
   */
  constructor(
    /** The windows' limits and the reserve, as set. */
    readonly limits: BudgetLimits,
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

  /** What `priority`'s calls may spend of each window (priorities.ts). */
  private usable(priority: CallPriority): BudgetLimits {
    return usableLimits(this.limits, this.limits.reservePercent ?? 0, priority);
  }

  /**
   * Whether a call of `key` may go now: what it was counted as if it may, or a promise that
   * settles with that when it may (undefined: the signal aborted first, nothing counted), or
   * rejects with RATE_LIMITED when it may not before `deadline`.
   */
  admit(
    key: KeyHash,
    deadline: number,
    signal: RequestSignal,
    priority: CallPriority = 'interactive',
  ): Counted | Promise<Counted | undefined> {
    const state = this.keys.of(key);
    const now = Date.now();
    const again = (waitMs: number) => this.waitThenAdmit(key, waitMs, deadline, signal, priority);
    if (state.pausedUntil > now) return again(state.pausedUntil - now);
    if (this.source?.healthy) {
      const holder = holderOf(state, priority, this.limits.reservePercent ?? 0);
      const { slice } = holder;
      if (slice.left > 0 && slice.expires > now) {
        slice.left--;
        this.admitted?.(key, now);
        return slice;
      }
      return this.refillWithin(key, holder, deadline, priority).then((granted) =>
        // Aborted while Redis was asked: nothing is counted, and nothing will be sent.
        signal.aborted
          ? undefined
          : // null: Redis answered with an error (or is lost): counted alone, reported back later.
            granted === null
            ? this.admitAlone(key, state, deadline, signal, priority)
            : granted
              ? this.admit(key, deadline, signal, priority)
              : again(RETRY_SLICE_MS),
      );
    }
    return this.admitAlone(key, state, deadline, signal, priority);
  }

  /** The key's refill, or RATE_LIMITED (nothing counted) when it has not come by `deadline`. */
  private refillWithin(
    key: KeyHash,
    holder: SliceHolder,
    deadline: number,
    priority: CallPriority,
  ): Promise<number | null> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(budgetUnanswered()), Math.max(0, deadline - Date.now()));
      void refill(this.source!, key, holder, this.sliceSize, this.usable(priority)).then((granted) => {
        clearTimeout(timer);
        resolve(granted);
      });
    });
  }

  /** A call that admit counted and that was then never sent: what it counted is given back. */
  refund(key: KeyHash, counted: Counted): void {
    if (typeof counted === 'number') {
      // Not `of`: a refund makes no key recent, and a key dropped meanwhile has no counts left.
      const state = this.keys.peek(key);
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
    const state = this.keys.of(key);
    state.pausedUntil = Math.max(state.pausedUntil, untilMs);
  }

  /**
   * What is left of `key`'s budget in each window (budget-left.ts), read without spending or
   * making the key recent: from Redis while it is shared and answers within COUNTS_WAIT_MS
   * (shared-state/shared-budget.ts), else from this process's counts. null: both limits off.
   * Kept as the key's `lastLeft` (a key counted here), which metrics read (`fewestRecent`).
   */
  async left(key: KeyHash): Promise<BudgetLeft | null> {
    if (this.off) return null;
    const left = await this.read(key);
    const state = this.keys.peek(key);
    if (state) state.lastLeft = { at: Date.now(), left };
    return left;
  }

  private async read(key: KeyHash): Promise<BudgetLeft> {
    // What interactive calls may still spend: the reserve is never theirs.
    const limits = this.usable('interactive');
    const state = this.keys.peek(key);
    const source = this.source;
    const pausedMs = () => Math.max(0, (state?.pausedUntil ?? 0) - Date.now());
    if (source?.healthy && source.counts) {
      const counts = await source.counts(key, sliceLifetimeMs(source));
      const now = Date.now();
      const slice = state?.slice;
      const unspent = slice && !slice.lapsed && slice.expires > now ? slice.left : 0;
      if (counts) return leftOf(counts, limits, { share: 1, unspent, pausedMs: pausedMs() });
    }
    const share = this.source?.peers ?? this.processes;
    return leftOf(localCounts(state, Date.now()), limits, { share, unspent: 0, pausedMs: pausedMs() });
  }

  /**
   * How many times its setting a poller of `key` waits now (priorities.ts), from what `left`
   * reads (Redis's counts while shared, so every process paces alike); 1 without a reserve.
   */
  async pollerSlowdown(key: KeyHash): Promise<number> {
    if (this.off || !this.limits.reservePercent) return 1;
    return pollerSlowdown(await this.left(key));
  }

  /** Counting alone: the whole budget, or this process's share of it when Redis is lost. */
  private admitAlone(
    key: KeyHash,
    state: KeyState,
    deadline: number,
    signal: RequestSignal,
    priority: CallPriority,
  ): Counted | Promise<Counted | undefined> {
    const now = Date.now();
    const share = this.source?.peers ?? this.processes;
    const { perMinute, perHour } = this.usable(priority);
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
    return this.waitThenAdmit(key, waitMs, deadline, signal, priority);
  }

  private async waitThenAdmit(
    key: KeyHash,
    waitMs: number,
    deadline: number,
    signal: RequestSignal,
    priority: CallPriority,
  ): Promise<Counted | undefined> {
    if (Date.now() + waitMs >= deadline) throw overBudget(waitMs);
    await sleep(waitMs, signal);
    // Aborted meanwhile: the client says why (stopped()), and sends nothing.
    if (signal.aborted) return undefined;
    return this.admit(key, deadline, signal, priority);
  }

  /** Keys counted now (at most MAX_KEYS). */
  get size(): number {
    return this.keys.size;
  }
}
