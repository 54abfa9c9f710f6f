// A subscriber's place in a shared stream (shared-streams.ts): the results handed to it and not
// yet read (subscriber-backlog.ts bounds them), the reader waiting, and what it runs when it
// leaves. An SSE subscriber is read through `read` (sse-writer.ts), anything else as an
// AsyncIterator.
import { type ExecutionResult, GraphQLError } from 'graphql';
import { codedError } from '../errors/codes.ts';
import { Backlog, type BacklogPolicy } from './subscriber-backlog.ts';

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
