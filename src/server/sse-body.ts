// An event stream as the body of the Response yoga sends, for a caller of its fetch handler
// (tests, other servers); server/sse-door.ts writes node's responses without it (sse-writer.ts).
import { Readable } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import { COMPLETE, nextEvent, PING } from './sse-events.ts';
import { type Pingable, startPinging, stopPinging } from './sse-pings.ts';

/** The body of the Response yoga sends, for a caller of its fetch handler (tests, other servers). */
export class SseBody extends Readable implements Pingable {
  private reading = false;
  private started = false;

  constructor(private readonly results: AsyncIterator<ExecutionResult>) {
    super();
  }

  ping(): void {
    if (this.readableLength === 0) this.push(PING);
  }

  /**
   * At the first read, when the response is being written: a body never written (its client
   * left first, or server/sse-door.ts wrote the stream instead) is never pinged and holds no place.
   */
  private start(): void {
    this.started = true;
    // First a ping: some browsers hold a fetch until the first bytes of the body arrive.
    this.push(PING);
    startPinging(this);
  }

  override _read(): void {
    if (!this.started) this.start();
    if (this.reading) return;
    this.reading = true;
    this.results.next().then(
      (step) => {
        this.reading = false;
        if (this.destroyed) return;
        try {
          this.deliver(step);
        } catch (error) {
          this.destroy(error as Error);
        }
      },
      (error: unknown) => this.destroy(error as Error),
    );
  }

  private deliver(step: IteratorResult<ExecutionResult>): void {
    if (step.done) {
      this.push(COMPLETE);
      this.push(null);
      stopPinging(this);
      return;
    }
    // As yoga's writer: a result of nothing is not an event.
    if (step.value == null || this.push(nextEvent(step.value))) this._read();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    stopPinging(this);
    // The client went away: the subscription ends (its slot, its place in a shared stream).
    Promise.resolve(this.results.return?.()).then(
      () => callback(error),
      () => callback(error),
    );
  }
}
