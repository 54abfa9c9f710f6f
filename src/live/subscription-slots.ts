// How many subscriptions and live queries may be open at once: MAX_SUBSCRIPTIONS_PER_KEY for
// one key across every process (through Redis when they share one: shared-state/shared-slots.ts;
// else, for the workers of WORKERS > 1, through the cluster's primary:
// shared-state/primary-slots.ts), MAX_SUBSCRIPTIONS in the process. Over either, the new one is
// refused with QUERY_TOO_COMPLEX (measure `subscriptions`) before it makes any upstream call.

import type { KeyHash } from '../core/caller-key.ts';
import { tooComplex } from '../limits/too-complex.ts';

/** Where the processes count a key's slots together (the port of shared-state's counters). */
export interface SlotCounter {
  /** A slot's member id, false when the key has none free, null when the count cannot say. */
  reserve(key: KeyHash): Promise<string | false | null>;
  /** The stream of a reserved slot has started. */
  hold(key: KeyHash, member: string): void;
  release(key: KeyHash, member: string): void;
}

export class SubscriptionSlots {
  private readonly perKey = new Map<KeyHash, number>();
  private total = 0;

  constructor(
    private readonly maxPerKey: number,
    private readonly maxInProcess: number,
    private readonly shared: SlotCounter | null = null,
  ) {}

  /** Slots taken now, all keys together. */
  get open(): number {
    return this.total;
  }

  /**
   * Takes a slot of `key`: the function returned gives it back (once). Throws when none is free.
   * Counted here before anything is awaited, so joins that come together (the frames of one
   * WebSocket chunk are handled in one go) cannot all pass the check before any is counted.
   * Synchronous without a shared count: a promise only when Redis or the primary is asked.
   */
  take(key: KeyHash): (() => void) | Promise<() => void> {
    this.checkHere(key);
    const release = this.takeHere(key);
    if (!this.shared) return release;
    const shared = this.shared;
    return shared.reserve(key).then(
      (member) => {
        if (member === false) {
          release();
          throw tooComplex('subscriptions', this.maxPerKey + 1, this.maxPerKey);
        }
        // null: Redis could not say, and the slot is counted here alone.
        if (member === null) return release;
        shared.hold(key, member);
        return () => {
          release();
          shared.release(key, member);
        };
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
  }

  private checkHere(key: KeyHash): void {
    const mine = this.perKey.get(key) ?? 0;
    if (mine >= this.maxPerKey) throw tooComplex('subscriptions', mine + 1, this.maxPerKey);
    if (this.total >= this.maxInProcess) throw tooComplex('subscriptions', this.total + 1, this.maxInProcess);
  }

  /** Takes a slot here; the function returned gives it back (once). */
  private takeHere(key: KeyHash): () => void {
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
