// The upstream client's calls in flight (UPSTREAM_MAX_IN_FLIGHT, the pool's gate), of which the
// calls of keys not accepted lately (key-standing.ts) hold UNVERIFIED_MAX_IN_FLIGHT at most: such
// a call takes a place of that share before it joins the pool's line, so however many keys nobody
// issued wait on a slow upstream, the rest of the pool stays free for keys it accepted. Whether a
// call is of an accepted key is read when it enters; it keeps what it took until it leaves.
import type { KeyHash } from '../../core/caller-key.ts';
import type { AbortSource, OldestFirstGate } from '../oldest-first.ts';

/** What a call holds: a place in the pool, and one of the unverified share besides. */
export type Held = 'pool' | 'pool-and-share';

export class CallSlots {
  constructor(
    private readonly pool: OldestFirstGate,
    private readonly share: OldestFirstGate,
    private readonly isAccepted: (key: KeyHash) => boolean,
  ) {}

  /**
   * What the call holds now (no wait when there is room), or a promise of it: null when `signal`
   * aborted first, holding nothing. Every Held must be given back once with leave().
   */
  enter(key: KeyHash, order: number, signal: AbortSource): Held | Promise<Held | null> {
    if (this.isAccepted(key)) {
      const entered = this.pool.enter(order, signal);
      return entered === true ? 'pool' : entered.then((granted) => (granted ? 'pool' : null));
    }
    const shared = this.share.enter(order, signal);
    if (shared === true) return this.poolAfterShare(order, signal);
    return shared.then((granted) => (granted ? this.poolAfterShare(order, signal) : null));
  }

  leave(held: Held): void {
    this.pool.leave();
    if (held === 'pool-and-share') this.share.leave();
  }

  /** Calls waiting for a place. */
  get queued(): number {
    return this.pool.queued + this.share.queued;
  }

  private poolAfterShare(order: number, signal: AbortSource): Held | Promise<Held | null> {
    const entered = this.pool.enter(order, signal);
    if (entered === true) return 'pool-and-share';
    return entered.then((granted) => {
      if (granted) return 'pool-and-share';
      this.share.leave();
      return null;
    });
  }
}
