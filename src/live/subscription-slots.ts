// How many subscriptions and live queries may be open at once: MAX_SUBSCRIPTIONS_PER_KEY for
// one key, MAX_SUBSCRIPTIONS in the process. Over either, the new one is refused with
// QUERY_TOO_COMPLEX (measure `subscriptions`) before it makes any upstream call.

import type { KeyHash } from '../caller-key.ts';
import { tooComplex } from '../limits/too-complex.ts';

export class SubscriptionSlots {
  private readonly perKey = new Map<KeyHash, number>();
  private total = 0;

  constructor(
    private readonly maxPerKey: number,
    private readonly maxInProcess: number,
  ) {}

  /** Slots taken now, all keys together. */
  get open(): number {
    return this.total;
  }

  /** Throws when no slot is free. */
  check(key: KeyHash): void {
    const mine = this.perKey.get(key) ?? 0;
    if (mine >= this.maxPerKey) throw tooComplex('subscriptions', mine + 1, this.maxPerKey);
    if (this.total >= this.maxInProcess) throw tooComplex('subscriptions', this.total + 1, this.maxInProcess);
  }

  /** Takes a slot; the function returned gives it back (once). */
  take(key: KeyHash): () => void {
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    this.total++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left === 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
      this.total--;
    };
  }
}
