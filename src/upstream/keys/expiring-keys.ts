// Key hashes remembered until a time each, at most `maxEntries` of them: past it, the one noted
// longest ago is forgotten first. An expired entry counts as absent (and is dropped when seen).
import type { KeyHash } from '../../core/caller-key.ts';

export class ExpiringKeys {
  /** Each key's expiry (epoch ms), in the order they were last noted: the first goes first. */
  private readonly until = new Map<KeyHash, number>();

  constructor(private readonly maxEntries: number) {}

  /** When `key` expires; 0 when it is not remembered (or has expired). */
  expiryOf(key: KeyHash, now = Date.now()): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    if (until > now) return until;
    this.until.delete(key);
    return 0;
  }

  /** Remembers `key` until `until`, as the entry noted last. */
  note(key: KeyHash, until: number): void {
    this.until.delete(key);
    if (this.until.size >= this.maxEntries) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, until);
  }

  /** Whether `key` was remembered (now forgotten). */
  forget(key: KeyHash): boolean {
    return this.until.delete(key);
  }

  get size(): number {
    return this.until.size;
  }
}
