// How the loaders read an upstream with no batch endpoints: one request per key.

/**
 * What DataLoader with `batch: false` gave these loaders (a request's loads deduped and cached
 * by key, primed, cleared), without what it spent to give it: a batch object, two promise
 * callbacks and a deferred dispatch per key. An operation waiting on the upstream holds all of
 * that for each of its calls in flight across every young-generation GC, and the gateway's CPU
 * per operation above bare yoga's was that GC (docs/performance.md). The load starts at once
 * rather than a tick later: nothing batches these keys, so the tick bought nothing.
 *
 * A failed key stays cached as its rejection, as DataLoader keeps one, so a field that asks
 * again in the same request gets the same error without another call.
 */
export class PerKeyLoader<K, V, C = K> {
  private readonly loads = new Map<C, Promise<V>>();

  constructor(
    private readonly read: (key: K) => Promise<V>,
    private readonly cacheKeyFn: (key: K) => C = (key) => key as unknown as C,
  ) {}

  load(key: K): Promise<V> {
    const cacheKey = this.cacheKeyFn(key);
    let loaded = this.loads.get(cacheKey);
    if (loaded === undefined) {
      loaded = this.read(key);
      this.loads.set(cacheKey, loaded);
    }
    return loaded;
  }

  /** The load of `key` if this request started one, without starting it. */
  peek(key: K): Promise<V> | undefined {
    return this.loads.get(this.cacheKeyFn(key));
  }

  /** Holds `value` for `key` unless the key is loaded or loading already (as DataLoader's prime). */
  prime(key: K, value: V): this {
    const cacheKey = this.cacheKeyFn(key);
    if (!this.loads.has(cacheKey)) this.loads.set(cacheKey, Promise.resolve(value));
    return this;
  }

  clear(key: K): this {
    this.loads.delete(this.cacheKeyFn(key));
    return this;
  }
}

/** A loader that makes one upstream request per distinct key (by `cacheKeyFn`). */
export function perKeyLoader<K, V, C = K>(
  load: (key: K) => Promise<V>,
  cacheKeyFn?: (key: K) => C,
): PerKeyLoader<K, V, C> {
  return new PerKeyLoader(load, cacheKeyFn);
}

/** A loader key made of several fields, as its cache key. */
export const jsonKey = (key: unknown) => JSON.stringify(key);
