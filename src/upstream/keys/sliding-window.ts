// Requests counted the way PostHog's throttles count them (DRF keeps the times of the last
// window's requests: a sliding window, not a bucket that refills), kept in BUCKETS slots of
// window/60 each. A slot older than the window is dropped; the slot the window's start falls in
// is still counted whole, so the count is never below the true one: holding it under the limit
// holds the true count under it too, at the cost of up to one slot's worth of headroom.
export const BUCKETS = 60;

export class SlidingWindow {
  /** Requests per slot, and which slot (its absolute index) each position holds. */
  private readonly counts = new Uint32Array(BUCKETS + 1);
  private readonly slots = new Float64Array(BUCKETS + 1).fill(-1);

  constructor(readonly windowMs: number) {}

  private slotOf(now: number): number {
    return Math.floor(now / (this.windowMs / BUCKETS));
  }

  /** Requests in the window ending now (the partly covered oldest slot included). */
  count(now: number): number {
    const current = this.slotOf(now);
    let total = 0;
    for (let i = 0; i <= BUCKETS; i++) {
      const slot = this.slots[i]!;
      if (slot > current - BUCKETS - 1 && slot <= current) total += this.counts[i]!;
    }
    return total;
  }

  add(now: number, n = 1): void {
    const current = this.slotOf(now);
    const i = current % (BUCKETS + 1);
    if (this.slots[i] !== current) {
      this.slots[i] = current;
      this.counts[i] = 0;
    }
    this.counts[i]! += n;
  }

  /** Takes back `n` requests counted by add(at), while the slot they were counted in is held. */
  remove(at: number, n = 1): void {
    const slot = this.slotOf(at);
    const i = slot % (BUCKETS + 1);
    if (this.slots[i] === slot) this.counts[i] = Math.max(0, this.counts[i]! - n);
  }

  /** When the oldest counted slot leaves the window: the soonest a full window has room again. */
  msUntilRoom(now: number): number {
    const current = this.slotOf(now);
    const slotMs = this.windowMs / BUCKETS;
    let oldest = current;
    for (let i = 0; i <= BUCKETS; i++) {
      const slot = this.slots[i]!;
      if (this.counts[i]! > 0 && slot > current - BUCKETS - 1 && slot < oldest) oldest = slot;
    }
    return Math.max(1, (oldest + BUCKETS + 1) * slotMs - now);
  }

  /** Whether nothing in it is still counted. */
  idle(now: number): boolean {
    return this.count(now) === 0;
  }
}
