// Kept GET answers in this process's memory (shelf.ts): bounded in bytes, least recently used
// first out; the change counts are bounded too (past MAX_GENERATIONS, everything is dropped and
// counting starts over).
import { BoundedCache, stringBytes } from '../../core/bounded-cache.ts';
import type { KeptAnswer, Look, Place, Shelf } from './shelf.ts';

/** Projects and collections whose changes are counted at most. */
const MAX_GENERATIONS = 10_000;

/** Bytes an entry holds besides its answer's (its record, the place). */
const ENTRY_BYTES = 256;

interface Entry {
  answer: KeptAnswer;
  seen: string;
}

export class MemoryShelf implements Shelf {
  private readonly kept: BoundedCache<Entry>;
  private readonly generations = new Map<string, number>();
  /** Bumped when the generations start over: every count seen before is stale. */
  private epoch = 0;

  constructor(maxBytes: number) {
    const limits = { maxEntries: 100_000, maxBytes, maxItemBytes: Math.floor(maxBytes / 4) };
    this.kept = new BoundedCache(
      limits,
      (entry) => ENTRY_BYTES + stringBytes(entry.seen) + entry.answer.body.length,
    );
  }

  look(id: string, generations: readonly string[]): Look {
    const seen = this.seenOf(generations);
    const entry = this.kept.get(id);
    if (!entry) return { seen };
    if (entry.seen === seen) return { seen, kept: entry.answer };
    this.kept.delete(id);
    return { seen };
  }

  put(place: Place, answer: KeptAnswer): void {
    if (place.seen !== null && this.seenOf(place.generations) === place.seen)
      this.kept.set(place.id, { answer, seen: place.seen });
  }

  changed(generations: readonly string[]): void {
    if (this.generations.size >= MAX_GENERATIONS) {
      this.generations.clear();
      this.epoch++;
    }
    for (const name of generations) this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }

  private seenOf(generations: readonly string[]): string {
    const counts = generations.map((name) => this.generations.get(name) ?? 0);
    return `${this.epoch}:${counts.join(':')}`;
  }
}
