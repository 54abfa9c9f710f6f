// A write that went through the gateway wakes the live work of the same key on the same project
// (activity pollers, live queries), so a caller sees their own change without waiting a poll
// interval. Keyed by a hash of the key: no key is kept here, and one key's writes never wake
// another key's work.
import { createHash } from 'node:crypto';

export type KeyHash = string & { readonly __keyHash: unique symbol };

export const hashKey = (authorization: string): KeyHash =>
  createHash('sha256').update(authorization).digest('hex') as KeyHash;

/** Whether a write to `written` may change what was read of `read` (either may be @current). */
export const sameProject = (read: string, written: string) =>
  read === written || read === '@current' || written === '@current';

type Listener = (projectId: string) => void;

const PROJECT_OF_PATH = /^\/api\/projects\/([^/]+)\//;

export class WakeBus {
  private readonly listeners = new Map<KeyHash, Set<Listener>>();

  /** Calls `listener` with the project of every write made with this key; returns the stop. */
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
    const projectId = PROJECT_OF_PATH.exec(path)?.[1];
    if (!projectId) return;
    for (const listener of this.listeners.get(hashKey(authorization)) ?? []) listener(projectId);
  }
}
