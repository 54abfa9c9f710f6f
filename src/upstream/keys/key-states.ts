// The keys a budget counts, most recently used last and at most MAX_KEYS of them.
import type { KeyHash } from '../../core/caller-key.ts';
import type { BudgetLeft } from './budget-left.ts';
import { type SliceHolder, spentSlice } from './slices.ts';
import { SlidingWindow } from './sliding-window.ts';

/**
 * Keys counted at once; past it the counts of the key used least recently are dropped, unless it
 * is paused or waiting for a slice (its pause or its refill would be lost): those are kept, and
 * the next idle one goes. Invented keys (each a 401 upstream) so never end a real key's pause.
 */
export const MAX_KEYS = 10_000;

/** What a budget holds of one key: its windows, its pause and its shared slice. */
export interface KeyState extends SliceHolder {
  minute: SlidingWindow;
  hour: SlidingWindow;
  pausedUntil: number;
  /** Pollers' own slice while there is a reserve (priorities.ts); absent until a poller calls. */
  pollers?: SliceHolder;
  /** What the budget's `left` read of the key last, and when (budget-left.ts's `fewestRecent`). */
  lastLeft?: { at: number; left: BudgetLeft };
}

export class KeyStates {
  private readonly keys = new Map<KeyHash, KeyState>();
  /** The key `of` saw last, which it left as the map's last entry. */
  private lastKey: KeyHash | null = null;

  /** Keys counted now (at most MAX_KEYS). */
  get size(): number {
    return this.keys.size;
  }

  /** Every key counted now. */
  values(): IterableIterator<KeyState> {
    return this.keys.values();
  }

  /** The key's state if it is counted, without making it recent. */
  peek(key: KeyHash): KeyState | undefined {
    return this.keys.get(key);
  }

  /** The key's state, made the most recently used; a key not counted yet starts empty. */
  of(key: KeyHash): KeyState {
    let state = this.keys.get(key);
    if (state) {
      // Most recently used last: the first entry is the first to drop. A key used again right
      // after itself is last already, and is not moved.
      if (key !== this.lastKey) {
        this.keys.delete(key);
        this.keys.set(key, state);
      }
    } else {
      if (this.keys.size >= MAX_KEYS) this.dropOne();
      state = {
        minute: new SlidingWindow(60_000),
        hour: new SlidingWindow(3_600_000),
        pausedUntil: 0,
        slice: spentSlice(),
        refilling: null,
        spentAlone: 0,
      };
      this.keys.set(key, state);
    }
    this.lastKey = key;
    return state;
  }

  /**
   * Drops the least recently used key that is neither paused nor refilling. One that is goes to
   * the back instead (so the next drop does not look at it again); if every key is, the least
   * recently used goes all the same: the bound holds whatever the keys do.
   */
  private dropOne(): void {
    const now = Date.now();
    for (let looked = 0; looked < this.keys.size; looked++) {
      const [key, state] = this.keys.entries().next().value!;
      this.keys.delete(key);
      if (state.pausedUntil <= now && state.refilling === null && !state.pollers?.refilling) return;
      this.keys.set(key, state);
    }
    this.keys.delete(this.keys.keys().next().value!);
  }
}
