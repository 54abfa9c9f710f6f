// How the loaders read an upstream with no batch endpoints: one request per key.
import DataLoader from 'dataloader';

/**
 * A batch function over one request per key. Loaders built on it set `batch: false` (see
 * `perKeyLoader`): they still dedupe and cache, and skip the tick a batch waits for. A failed key
 * settles as its Error, so it fails alone.
 */
export function eachKey<K, V>(load: (key: K) => Promise<V>) {
  // With `batch: false` every batch is one key: no array of promises to wait on.
  return (keys: readonly K[]) =>
    load(keys[0]!).then(
      (value) => [value],
      (error: Error) => [error],
    );
}

/** A DataLoader that makes one upstream request per distinct key (by `cacheKeyFn`). */
export function perKeyLoader<K, V, C = K>(
  load: (key: K) => Promise<V>,
  cacheKeyFn?: (key: K) => C,
): DataLoader<K, V, C> {
  return new DataLoader<K, V, C>(eachKey(load), { batch: false, cacheKeyFn });
}

/** A loader key made of several fields, as its cache key. */
export const jsonKey = (key: unknown) => JSON.stringify(key);
