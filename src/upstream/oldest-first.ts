// Which upstream call gets the next free connection: the one of the oldest operation waiting.
//
// undici's pool serves its queue first come, first served. When the upstream is the bottleneck,
// that interleaves every operation's calls: fifty operations of eighteen calls each advance
// together, each taking about as long as all of them, and each holding what it has fetched
// (pages, records, loaders) all that time. Handing a free connection to the operation that was
// bound first (UpstreamClient.forCaller) finishes the operations under way before later ones
// start. The upstream sets the throughput either way; what changes is that few operations are
// half done at any moment, and a later one waits before its first call, holding nothing fetched:
// the gateway holds less under load (docs/performance.md).
//
// No operation waits for ever: orders only grow, every operation makes a bounded number of
// calls (the upstream-call budget), and a wait ends when its request's signal aborts (deadline
// or client gone). A caller whose signal does not abort at its deadline (a subscription's poll)
// may still be granted a slot late; UpstreamClient then gives it back unsent.
import type { EventEmitter } from 'node:events';

/** The GraphQL request's signal, as the gate needs it (RequestSignal). */
export type AbortSource = EventEmitter & { readonly aborted: boolean };

interface Waiter {
  order: number;
  /** Within one operation, first come, first served. */
  arrival: number;
  settle: (granted: boolean) => void;
  /** Aborted while waiting: left in the heap, skipped when it comes up. */
  cancelled: boolean;
}

export class OldestFirstGate {
  private inFlight = 0;
  private arrivals = 0;
  private cancelled = 0;
  /** A binary min-heap on (order, arrival). */
  private readonly heap: Waiter[] = [];

  constructor(private slots: number) {}

  /** Fewer or more calls at once (once the upstream's protocol is known): more wake waiters now. */
  resize(slots: number): void {
    this.slots = slots;
    while (this.inFlight < this.slots && this.heap.length > this.cancelled) {
      this.inFlight++;
      this.handOver();
    }
  }

  /**
   * true when a slot was free and is now taken (no await on the hot path when the upstream keeps
   * up); else a promise of true when one is handed over, or of false when `signal` aborts first.
   * Every true must be followed by one leave().
   */
  enter(order: number, signal: AbortSource): true | Promise<boolean> {
    if (this.inFlight < this.slots) {
      this.inFlight++;
      return true;
    }
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        order,
        arrival: this.arrivals++,
        cancelled: false,
        settle: (granted) => {
          signal.off('abort', onAbort);
          resolve(granted);
        },
      };
      const onAbort = () => {
        waiter.cancelled = true;
        this.cancelled++;
        waiter.settle(false);
      };
      // Taken off when the waiter settles, however it does: `on`, not `once`, which wraps it.
      signal.on('abort', onAbort);
      this.push(waiter);
    });
  }

  /** The slot goes straight to the oldest waiter, if any (unless there are fewer slots now). */
  leave(): void {
    if (this.inFlight > this.slots || !this.handOver()) this.inFlight--;
  }

  /** Grants a taken slot to the oldest waiter; false when none waits. */
  private handOver(): boolean {
    for (let next = this.pop(); next; next = this.pop()) {
      if (next.cancelled) {
        this.cancelled--;
        continue;
      }
      next.settle(true);
      return true;
    }
    return false;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.heap.length - this.cancelled;
  }

  private push(waiter: Waiter): void {
    const heap = this.heap;
    let at = heap.push(waiter) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(heap[at]!, heap[parent]!)) break;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  }

  private pop(): Waiter | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || !last) return top;
    heap[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
      if (least === at) return top;
      [heap[at], heap[least]] = [heap[least]!, heap[at]!];
      at = least;
    }
  }
}

const before = (a: Waiter, b: Waiter) => a.order < b.order || (a.order === b.order && a.arrival < b.arrival);
