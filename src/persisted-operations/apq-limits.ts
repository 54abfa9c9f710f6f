// How much of the APQ texts callers register (without a key) is kept: by each process in memory
// (plugin.ts) and, with REDIS_URL, by all of them together in Redis (shared-state/apq-store.ts).
// The same figures for both, so a fleet's Redis holds no more than one process's memory does.
import type { BoundedCacheLimits } from '../core/bounded-cache.ts';

/** 1,000 texts, 16 MiB in all, 1 MiB each at most (as bounded-cache.ts weighs a string). */
export const APQ_LIMITS: Readonly<BoundedCacheLimits> = Object.freeze({
  maxEntries: 1_000,
  maxBytes: 16 * 1024 * 1024,
  maxItemBytes: 1024 * 1024,
});
