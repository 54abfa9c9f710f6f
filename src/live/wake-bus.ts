// A write that went through the gateway wakes the live work of the same key on the same project
// (activity pollers, live queries), so a caller sees their own change without waiting a poll
// interval. Keyed by a hash of the key: no key is kept here, and one key's writes never wake
// another key's work.
import { hashKey, type KeyHash } from '../caller-key.ts';
import { type Resource, resourceOf } from '../upstream/paths.ts';

type Listener = (written: Resource) => void;

export class WakeBus {
  private readonly listeners = new Map<KeyHash, Set<Listener>>();

  /** Calls `listener` with what every write made with this key was about; returns the stop. */
  listen(key: KeyHash, listener: Listener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** A write with `authorization` to the upstream `path` went through. */
  written(authorization: string, path: string): void {
    if (this.listeners.size === 0) return;
    const written = resourceOf(path);
    if (!written) return;
    for (const listener of this.listeners.get(hashKey(authorization)) ?? []) listener(written);
  }
}
