// The Server-Sent Events writer of a stream of results (a subscription, a live query, @defer
// over SSE), in place of yoga's: the same protocol (sse-events.ts), at a smaller cost per open
// stream:
// - each result's bytes are made once, however many streams write it (a shared stream hands the
//   same result to all its subscribers: shared-streams.ts);
// - one timer pings every stream, not a timer per stream (sse-pings.ts);
// - a client that stopped reading is let go: its connection closes once no byte waiting for it
//   has been taken for the stall timeout (STALLED_READER_MS), where it would otherwise hold its
//   socket, and the kernel's buffers full of its events, until shutdown; so is one that reads
//   more slowly than it is written to (slow-readers.ts);
// - node's response is written straight (writeEvents); the Response yoga sends has a plain Node
//   stream for body (sse-body.ts), read as it drains.
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { subscriberOf } from '../live/shared-live-work.ts';
import { type ResultReader, Subscriber } from '../live/shared-streams.ts';
import { watchReadingPace } from './slow-readers.ts';
import { SseBody } from './sse-body.ts';
import { COMPLETE, nextEvent, PING } from './sse-events.ts';
import { type Pingable, startPinging, stopPinging } from './sse-pings.ts';

/** In lower case, as every later plugin names them: a `set` of one replaces it, never adds a second. */
const HEADERS = {
  'content-type': 'text/event-stream',
  connection: 'keep-alive',
  'cache-control': 'no-cache',
  'content-encoding': 'none',
};

/** The results behind each event stream answered here, for server/sse-door.ts to write. */
const eventStreams = new WeakMap<Response, AsyncIterator<ExecutionResult>>();

/**
 * Where server/sse-door.ts has an event stream written: node's response, or the connection taken from it
 * (taken-connection.ts).
 */
export interface EventSink {
  readonly socket: Socket | null;
  readonly destroyed: boolean;
  readonly writableLength: number;
  write(bytes: Buffer): boolean;
  end(bytes: Buffer): void;
  destroy(): void;
  once(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * The same stream written straight to node's response or its connection (server/sse-door.ts): no
 * Readable, no pipe, one listener on it, a `drain` listener only while the client is behind. A subscriber of
 * a shared stream is read by being told of each result (ResultReader), not by a promise per
 * result: what an open subscriber holds besides its connection is this object and its place in
 * the stream.
 */
class ResponseEvents implements Pingable, ResultReader {
  private reading = false;
  private readAgain = false;
  private unwatchPace: (() => void) | null = null;

  constructor(
    private readonly results: AsyncIterator<ExecutionResult>,
    private readonly res: EventSink,
  ) {}

  start(stalledReaderMs: number): void {
    const socket = this.res.socket;
    this.res.once('close', () => this.stop(socket));
    // TCP keep-alive probes, as @whatwg-node/server sets for a streamed answer: a subscriber
    // whose host vanished without closing is found out, and its slot given back.
    socket?.setKeepAlive(true);
    // A client that stopped reading (its host answers, its window stays shut): node's socket
    // timeout runs while no write is made (a ping is, whenever nothing waits) and, unlike a count
    // of the bytes waiting, takes a write the kernel is still taking, however slowly, for activity
    // (net.Socket's _onTimeout). Closing gives back its slot and socket ('close').
    socket?.setTimeout(stalledReaderMs);
    socket?.on('timeout', closeIfStalled);
    // Node's HTTP server destroys a socket at its timeout unless its response (or request)
    // listens for it: written to node's response, a quiet stream would be cut at the stall
    // timeout whatever its client took. The stall check above decides alone.
    if (this.res instanceof ServerResponse) this.res.on('timeout', leaveToStallCheck);
    if (socket) this.unwatchPace = watchReadingPace(socket, stalledReaderMs);
    this.res.write(PING);
    startPinging(this);
    this.pull();
  }

  ping(): void {
    if (this.res.writableLength === 0) this.res.write(PING);
  }

  private pull(): void {
    if (this.results instanceof Subscriber) {
      this.readShared(this.results);
      return;
    }
    this.results.next().then(
      (step) => this.take(step),
      () => this.res.destroy(),
    );
  }

  /**
   * A subscriber tells its reader of a result it holds at once, from within `read`: results
   * caught up on after a drain (up to MAX_UNREAD) are read in this loop, not by a call within a
   * call for each one.
   */
  private readShared(subscriber: Subscriber): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    do {
      this.readAgain = false;
      subscriber.read(this);
    } while (this.readAgain);
    this.reading = false;
  }

  take(step: IteratorResult<ExecutionResult>): void {
    if (this.res.destroyed) return;
    try {
      this.deliver(step);
    } catch {
      this.res.destroy();
    }
  }

  private deliver(step: IteratorResult<ExecutionResult>): void {
    if (step.done) {
      stopPinging(this);
      this.res.end(COMPLETE);
      return;
    }
    if (step.value == null || this.res.write(nextEvent(step.value))) this.pull();
    else this.res.once('drain', () => this.pull());
  }

  /** The response is over (the client went away, or the stream completed). */
  private stop(socket: Socket | null): void {
    stopPinging(this);
    this.unwatchPace?.();
    // Node's response leaves the socket to node's server (a later request of a kept-alive one).
    socket?.off('timeout', closeIfStalled);
    // The subscription ends (its slot, its place in a shared stream).
    void Promise.resolve(this.results.return?.()).catch(() => {});
  }
}

function leaveToStallCheck(): void {}

/** A stream's socket at its stall timeout: closed if bytes still wait for its client. */
function closeIfStalled(this: Socket): void {
  if (this.writableLength > 0) this.destroy();
}

/** The results of `response`, if it is an event stream answered here, for server/sse-door.ts to write. */
export function eventStreamOf(response: Response): AsyncIterator<ExecutionResult> | undefined {
  return eventStreams.get(response);
}

/**
 * Writes an event stream's results to `sink` (node's response or its connection), head written;
 * a client that has taken no byte of what waits for it for `stalledReaderMs` is let go.
 */
export function writeEvents(
  results: AsyncIterator<ExecutionResult>,
  sink: EventSink,
  stalledReaderMs: number,
): void {
  if (sink.destroyed) void Promise.resolve(results.return?.()).catch(() => {});
  else new ResponseEvents(results, sink).start(stalledReaderMs);
}

/**
 * After yoga's result processors: where yoga chose its SSE writer for a stream of results, this
 * one writes it. (A single result asked for as SSE is left to yoga's.)
 */
export function useSseWriter(): Plugin {
  return {
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (resultProcessor?.name !== 'processSSEResult' || !result || !(Symbol.asyncIterator in result))
        return;
      setResultProcessor((results, fetchAPI) => {
        // A subscriber of a shared stream reads it straight from its place there: the stream's
        // results are finished by the shared run's own pipeline, and this request's pipeline
        // (its context, its wrappers) is not kept for as long as it stays subscribed.
        const own = subscriberOf(request);
        const iterator = own ?? (results as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
        const response = new fetchAPI.Response(new SseBody(iterator) as never, {
          status: 200,
          headers: HEADERS,
        });
        eventStreams.set(response, iterator);
        return response;
      }, 'text/event-stream');
    },
  };
}
