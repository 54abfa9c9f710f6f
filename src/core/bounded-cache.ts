// A least-recently-used cache bounded in entries and in bytes, for every cache whose keys or
// values a caller without a key chooses (parsed documents by text, parse errors by text, APQ
// texts by hash). An item larger than `maxItemBytes` is never kept: a 1 MiB query text parsed
// once is not worth holding, and a thousand of them would hold a gigabyte.
/**
 * The longest query text kept parsed (app.ts) or compiled (jit.ts): far above any screen's, far
 * below a body's limit.
 */
export const MAX_CACHED_TEXT = 32_768;

export interface BoundedCacheLimits {
  maxEntries: number;
  maxBytes: number;
  maxItemBytes: number;
}

/** UTF-16 code units × 2: what V8 may hold for a string, whatever its encoding on the wire. */
export const stringBytes = (text: string) => text.length * 2;

export class BoundedCache<V> {
  private readonly items = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly limits: BoundedCacheLimits,
    /** The bytes an item holds besides its key (0 where the value is small or shared). */
    private readonly valueBytes: (value: V) => number = () => 0,
  ) {}

  get(key: string): V | undefined {
    const item = this.items.get(key);
    if (item === undefined) return undefined;
    // Most recently used last: the first entry is the one to drop.
    this.items.delete(key);
    this.items.set(key, item);
    return item.value;
  }

  set(key: string, value: V): void {
    const bytes = stringBytes(key) + this.valueBytes(value);
    this.delete(key);
    if (bytes > this.limits.maxItemBytes) return;
    this.items.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.items.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      this.delete(this.items.keys().next().value!);
    }
  }

  delete(key: string): boolean {
    const item = this.items.get(key);
    if (item === undefined) return false;
    this.items.delete(key);
    this.bytes -= item.bytes;
    return true;
  }

  get size(): number {
    return this.items.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }
}
