// A write that went through the gateway wakes the live work of the same key on the same project
// (activity pollers, live queries), so a caller sees their own change without waiting a poll
// interval, on whichever process holds that work: a relay (shared-state/wake-relay.ts) carries
// each write to the other processes (through Redis, or through the cluster's primary) and hands
// theirs to `deliver`. Keyed by a hash of the key: no key is kept or sent, and one key's writes
// never wake another key's work.
import { hashKey, type KeyHash } from '../core/caller-key.ts';
import { type Resource, resourceOf } from '../upstream/posthog/paths.ts';

type Listener = (written: Resource) => void;

/** Carries this process's writes to the others. */
export interface WakeRelay {
  publish(key: KeyHash, written: Resource): void;
}

export class WakeBus {
  private readonly listeners = new Map<KeyHash, Set<Listener>>();
  private relay: WakeRelay | null = null;

  /** Writes go to the other processes too, from now on. */
  relayThrough(relay: WakeRelay): void {
    this.relay = relay;
  }

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

  /** A write with `authorization` to the upstream `path` went through this process. */
  written(authorization: string, path: string): void {
    if (this.listeners.size === 0 && !this.relay) return;
    const written = resourceOf(path);
    if (!written) return;
    const key = hashKey(authorization);
    this.relay?.publish(key, written);
    this.deliver(key, written);
  }

  /** A write of `key` (here, or relayed from another process). */
  deliver(key: KeyHash, written: Resource): void {
    for (const listener of this.listeners.get(key) ?? []) listener(written);
  }
}
