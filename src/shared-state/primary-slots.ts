// MAX_SUBSCRIPTIONS_PER_KEY counted across the workers of WORKERS > 1 without Redis: the primary
// holds each key's count of open slots, by worker, and takes one only while the key's count is
// under the cap, so the cap is the whole cluster's however the kernel spreads the connections.
// A worker that exits gives back every slot it held. Bounded: one count per key and worker
// holding any slot (MAX_SUBSCRIPTIONS bounds those of each worker).
import type { Worker } from 'node:cluster';
import type { KeyHash } from '../core/caller-key.ts';
import type { SlotCounter } from '../live/subscription-slots.ts';
import type { PrimaryService } from './primary-hub.ts';
import { askPrimary, notePrimary } from './primary-ipc.ts';

const TOPIC = 'slots';
/** How long a worker waits for the primary's count before counting alone. */
const ANSWER_MS = 2_000;

interface Reserve {
  key: KeyHash;
  max: number;
}

/** A worker's side: each slot asked of the primary, each given back by a note. */
export class PrimarySlots implements SlotCounter {
  constructor(private readonly maxPerKey: number) {}

  async reserve(key: KeyHash): Promise<string | false | null> {
    const body: Reserve = { key, max: this.maxPerKey };
    const taken = await askPrimary(TOPIC, body, ANSWER_MS, (late) => {
      // Taken after this worker stopped waiting (and counted it alone): given back.
      if (late === true) notePrimary(TOPIC, { key });
    });
    if (taken === undefined) return null;
    return taken === true ? 'primary' : false;
  }

  hold(): void {}

  release(key: KeyHash): void {
    notePrimary(TOPIC, { key });
  }
}

/** The primary's side: each key's open slots, by worker. */
export class SlotsAtPrimary implements PrimaryService {
  private readonly keys = new Map<KeyHash, { total: number; byWorker: Map<number, number> }>();

  ask(from: Worker, body: unknown): boolean {
    const { key, max } = (body ?? {}) as Partial<Reserve>;
    if (typeof key !== 'string' || typeof max !== 'number') return false;
    let counts = this.keys.get(key as KeyHash);
    if ((counts?.total ?? 0) >= max) return false;
    if (!counts) {
      counts = { total: 0, byWorker: new Map() };
      this.keys.set(key as KeyHash, counts);
    }
    counts.total++;
    counts.byWorker.set(from.id, (counts.byWorker.get(from.id) ?? 0) + 1);
    return true;
  }

  note(from: Worker, body: unknown): void {
    const { key } = (body ?? {}) as Partial<Reserve>;
    const counts = typeof key === 'string' ? this.keys.get(key as KeyHash) : undefined;
    const mine = counts?.byWorker.get(from.id) ?? 0;
    if (!counts || mine === 0) return;
    if (mine === 1) counts.byWorker.delete(from.id);
    else counts.byWorker.set(from.id, mine - 1);
    counts.total--;
    if (counts.total === 0) this.keys.delete(key as KeyHash);
  }

  gone(worker: Worker): void {
    for (const [key, counts] of this.keys) {
      counts.total -= counts.byWorker.get(worker.id) ?? 0;
      counts.byWorker.delete(worker.id);
      if (counts.total === 0) this.keys.delete(key);
    }
  }
}
