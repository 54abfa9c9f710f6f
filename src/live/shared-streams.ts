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
import { type ExecutionResult, GraphQLError } from 'graphql';
import { codedError } from '../errors/codes.ts';
import { Backlog, type BacklogPolicy } from './subscriber-backlog.ts';

type Source = ExecutionResult | AsyncIterable<ExecutionResult>;

export interface SharedStreamOptions {
  /** Starts the operation, once, when the first subscriber reads. */
  start: () => Promise<Source> | Source;
  /** Live queries: a newcomer gets the last answer at once (a subscription's events are not replayed). */
  replayLast: boolean;
  /** The most bytes of a subscription's events a subscriber may leave unread. */
  maxBacklogBytes: number;
  /** Called once, when the stream is over (its source ended, or its last subscriber left). */
  onEnd?: () => void;
}

/**
 * How a subscriber joins a stream, at its first read: it resolves to what it runs when it is
 * over (nothing if it left meanwhile), or throws when it may not join (no slot free).
 */
export type Join = (subscriber: Subscriber) => Promise<(() => void) | undefined> | (() => void) | undefined;

const DONE: IteratorResult<ExecutionResult> = { done: true, value: undefined };

/**
 * What reads a subscriber's results one at a time, told of the next when it comes (`read`):
 * sse-writer.ts's writer is one, so that an idle subscriber waits without a promise of its own.
 */
export interface ResultReader {
  take(step: IteratorResult<ExecutionResult>): void;
}

/**
 * A stream of shared results, read by one subscriber: what yoga's pipeline iterates. It is what
 * an open subscriber holds besides its connection, so it holds little: its unread results, the
 * reader waiting, and what it runs when it leaves (the join and what it closed over are let go
 * once it has joined).
 */
export class Subscriber implements AsyncIterableIterator<ExecutionResult> {
  private readonly unread = new Backlog();
  private waiting: ResultReader | null = null;
  private over = false;
  private leave: (() => void) | null = null;

  /** `join` runs at the first read: a stream never read takes no slot and starts nothing. */
  constructor(private join: Join | null) {}

  next(): Promise<IteratorResult<ExecutionResult>> {
    return new Promise((take) => this.read({ take }));
  }

  /** As next(), but `reader` is told of the step, at once when it is here, else when it comes. */
  read(reader: ResultReader): void {
    if (this.join) {
      this.joinFirst(this.join, reader);
      return;
    }
    const result = this.unread.shift();
    if (result) reader.take({ done: false, value: result });
    else if (this.over) reader.take(DONE);
    else this.waiting = reader;
  }

  private joinFirst(join: Join, reader: ResultReader): void {
    this.join = null;
    Promise.resolve()
      .then(() => join(this))
      .then(
        (leave) => {
          // Over while joining (it left, or the stream ended): it leaves at once.
          if (this.over) leave?.();
          else this.leave = leave ?? null;
        },
        (error: unknown) => {
          // A refusal (no slot free) is coded; anything else is not shown as it was thrown.
          const refusal =
            error instanceof GraphQLError
              ? error
              : codedError('INTERNAL_SERVER_ERROR', 'Could not subscribe.');
          this.unread.addLast({ errors: [refusal] });
          this.over = true;
        },
      )
      // What leaving threw (it left while it joined) is not the reader's to hear: it is over.
      .catch(() => {})
      .then(() => this.read(reader));
  }

  /** The client left (or completed the operation). */
  return(): Promise<IteratorResult<ExecutionResult>> {
    this.unread.clear();
    this.close();
    this.wake(DONE);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** Left (or ended): a join still under way must not take a slot or a place. */
  get left(): boolean {
    return this.over;
  }

  /** Joined: what it may leave unread from now on. */
  follow(policy: BacklogPolicy): void {
    this.unread.follow(policy);
  }

  deliver(result: ExecutionResult): void {
    if (this.over) return;
    if (this.waiting) {
      this.wake({ done: false, value: result });
      return;
    }
    if (this.unread.add(result)) return;
    // A reader this far behind (a client that reads too slowly) would hold results without
    // bound: it hears why after what it has, and leaves.
    this.unread.addLast(this.unread.overflow(result));
    this.close();
  }

  /** The stream ended: what is unread is still read, then done. */
  finish(): void {
    this.close();
    if (this.unread.length === 0) this.wake(DONE);
  }

  private close(): void {
    if (this.over) return;
    this.over = true;
    const leave = this.leave;
    this.leave = null;
    leave?.();
  }

  private wake(step: IteratorResult<ExecutionResult>): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.take(step);
  }
}

export class SharedStream {
  private readonly subscribers = new Set<Subscriber>();
  private source: AsyncIterator<ExecutionResult> | null = null;
  private started = false;
  private last: ExecutionResult | null = null;
  /** No subscriber may join once it is set: a newcomer starts a stream of its own. */
  ended = false;

  constructor(private readonly options: SharedStreamOptions) {}

  get size(): number {
    return this.subscribers.size;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    subscriber.follow({ latestOnly: this.options.replayLast, maxBytes: this.options.maxBacklogBytes });
    if (this.options.replayLast && this.last) subscriber.deliver(this.last);
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
    if (this.options.replayLast) this.last = prepared;
    for (const subscriber of this.subscribers) subscriber.deliver(prepared);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
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
