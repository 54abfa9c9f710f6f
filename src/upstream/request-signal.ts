// The one abort signal of a GraphQL request's upstream work, and why it was aborted: its
// deadline passed (RequestDeadline), its client went away (ClientGone), or it was answered
// (RequestAnswered).
import { EventEmitter } from 'node:events';

/** The abort reason when a GraphQL request's deadline passes. */
export class RequestDeadline extends Error {
  override name = 'RequestDeadline';
}

/**
 * The abort reason once a GraphQL request is answered: what it still has in flight (a retry of a
 * read whose field already failed, a wait for the key's budget) is of use to nobody.
 */
export class RequestAnswered extends Error {
  override name = 'RequestAnswered';
}

/**
 * The one RequestAnswered every answered request's signal is aborted with: every request ends so,
 * and an error made each time (its stack trace) is not free. It says only why; nothing adds to it.
 */
export const ANSWERED = Object.freeze(new RequestAnswered('answered'));

/** The abort reason when the client of a GraphQL request goes away. */
export class ClientGone extends Error {
  override name = 'ClientGone';
}

/**
 * The one abort signal of a GraphQL request, as the EventEmitter that undici also accepts as a
 * `signal`: undici adds and removes an abort listener for every call, which on an AbortSignal
 * (an EventTarget) costs more than parsing a small answer; on an EventEmitter it is cheap, and
 * no AbortController is made per request.
 */
export class RequestSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  constructor() {
    super();
    // One listener per upstream call in flight.
    this.setMaxListeners(0);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** Waits `ms`, or less when the signal aborts first; not at all when it has aborted already. */
export const sleep = (ms: number, signal: RequestSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    signal.once('abort', done);
    function done() {
      clearTimeout(timer);
      signal.off('abort', done);
      resolve();
    }
  });
