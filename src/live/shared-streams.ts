// One execution of live work for every subscriber that asked the same thing with the same key:
// a SharedStream runs the operation once (its source: a subscription's event stream, or a live
// query's answers), and hands each result, the same object, to each of its subscribers. The
// result carries its JSON text, made once when the first SSE answer writes it (yoga's SSE writer
// asks a result for its own `stringify`), so N subscribers cost one execution and one
// serialization per event.
//
// What each subscriber owns is its place here (a Subscriber: a queue of results it has not read
// yet) and its slot; leaving costs the others nothing. The stream stops its source when the last
// subscriber leaves, and ends every subscriber when the source ends.
import type { ExecutionResult } from 'graphql';
import { codedError } from '../errors/codes.ts';
import type { Subscriber } from './subscriber.ts';

export { type Join, type ResultReader, Subscriber } from './subscriber.ts';

type Source = ExecutionResult | AsyncIterable<ExecutionResult>;

export interface SharedStreamOptions {
  /** Starts the operation, once, when the first subscriber reads. */
  start: () => Promise<Source> | Source;
  /** Live queries: a newcomer gets the last answer at once (a subscription's events are not replayed). */
  replayLast: boolean;
  /** The most bytes of a subscription's events a subscriber may leave unread. */
  maxBacklogBytes: number;
  /** Live queries: asks the run for a fresh answer, pushed even if unchanged (live-refresh.ts). */
  refresh?: () => boolean;
  /** Called once, when the stream is over (its source ended, or its last subscriber left). */
  onEnd?: () => void;
}

export class SharedStream {
  private readonly subscribers = new Set<Subscriber>();
  private source: AsyncIterator<ExecutionResult> | null = null;
  private started = false;
  private last: ExecutionResult | null = null;
  /** Newcomers waiting for a fresh answer, and the last answer's text, to tell a repeat of it. */
  private awaitingFresh = new Set<Subscriber>();
  private lastText: string | null = null;
  /** No subscriber may join once it is set: a newcomer starts a stream of its own. */
  ended = false;

  constructor(private readonly options: SharedStreamOptions) {}

  get size(): number {
    return this.subscribers.size;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    subscriber.follow({ latestOnly: this.options.replayLast, maxBytes: this.options.maxBacklogBytes });
    // A newcomer to a live query gets the next run's answer, asked for now, not an older one.
    if (this.options.replayLast && this.last) {
      if (this.options.refresh?.()) {
        this.awaitingFresh.add(subscriber);
        this.lastText ??= JSON.stringify(this.last);
      } else subscriber.deliver(this.last);
    }
    if (!this.started) {
      this.started = true;
      void this.run();
    }
  }

  /** Shutdown: the stream ends, its subscribers complete, and its run is stopped. */
  close(): void {
    this.end();
    void this.source?.return?.();
  }

  remove(subscriber: Subscriber): void {
    // The last answer's text is kept only while a newcomer waits: later answers would outdate it.
    if (this.awaitingFresh.delete(subscriber) && this.awaitingFresh.size === 0) this.lastText = null;
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0) return;
    this.end();
    // Stops the poller or the re-runs behind it (a source still starting is stopped in run()).
    void this.source?.return?.();
  }

  private async run(): Promise<void> {
    try {
      const source = await this.options.start();
      if (!(Symbol.asyncIterator in source)) {
        this.share(source);
        return this.end();
      }
      this.source = source[Symbol.asyncIterator]();
      if (this.ended) {
        void this.source.return?.();
        return;
      }
      for (;;) {
        const step = await this.source.next();
        if (step.done || this.ended) break;
        this.share(step.value);
      }
    } catch {
      // The run failed outside GraphQL's own error handling (its pipeline masks and codes what
      // fails within): each subscriber hears it once, coded, with nothing of what was thrown.
      this.share({ errors: [codedError('INTERNAL_SERVER_ERROR', 'The live stream failed.')] });
    }
    this.end();
  }

  private share(result: ExecutionResult): void {
    const prepared = withSharedText(result);
    const waiting = this.awaitingFresh;
    // A fresh answer asked for a newcomer that repeats the last goes to the newcomers alone.
    const repeat = waiting.size > 0 && JSON.stringify(result) === this.lastText;
    if (waiting.size > 0) {
      this.awaitingFresh = new Set();
      this.lastText = null;
    }
    if (this.options.replayLast) this.last = prepared;
    for (const subscriber of this.subscribers)
      if (!repeat || waiting.has(subscriber)) subscriber.deliver(prepared);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    // Newcomers still waiting for a fresh answer hear the last one: it ended the stream.
    if (this.last) for (const subscriber of this.awaitingFresh) subscriber.deliver(this.last);
    this.awaitingFresh.clear();
    this.last = null;
    this.options.onEnd?.();
    for (const subscriber of this.subscribers) subscriber.finish();
  }
}

/**
 * The result with a `stringify` that serializes it once for all its readers: yoga's SSE and
 * JSON writers call `result.stringify` when a result has one (graphql-jit's results do). Not
 * enumerable, so a plugin's `{ ...result }` copy (one that changes it) is serialized afresh.
 */
function withSharedText(result: ExecutionResult): ExecutionResult {
  const own = (result as { stringify?: (value: unknown) => string }).stringify ?? JSON.stringify;
  let text: string | null = null;
  Object.defineProperty(result, 'stringify', {
    value: (value: unknown) => (text ??= own(value)),
    enumerable: false,
    configurable: true,
  });
  return result;
}
