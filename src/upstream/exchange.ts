// One upstream request and its whole answer, through undici's dispatcher: the status, the
// headers, and the body as the chunks undici received. undici's `request()` hands the body over
// as a Readable stream, which an answer read whole and at once does not need: a stream's state,
// four listeners and a promise per call, each kept while the call waits. What lives across a
// young-generation GC is most of what a short upstream call costs the gateway above a
// hand-written resolver (docs/performance.md, "Where the gateway costs more than bare yoga").
// What `request()` did that matters here is kept: the GraphQL request's signal aborts
// the call with the signal's reason, whether it is queued, waiting or reading; undici's own
// errors (timeouts, resets, a GOAWAY) reach the caller as they are; and the headers are parsed
// by undici's own parser.
//
// The handler is undici's documented legacy handler (onConnect, onHeaders, onData, onComplete,
// onError), the one its `request()` is written against; package.json pins undici.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import { malformedUpstreamBody } from '../errors/codes.ts';
import type { RequestSignal } from './request-signal.ts';
import type { Pool } from './undici-pool.ts';

type RawHeaders = (Buffer | string | string[])[];
const { parseHeaders } = createRequire(import.meta.url)('undici/lib/core/util.js') as {
  parseHeaders: (raw: RawHeaders) => Record<string, string | string[] | undefined>;
};

export interface Exchanged {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes as undici's views of the socket's reads (nothing copied). */
  chunks: Buffer[];
}

/** What undici aborts a call with when the signal gives no reason (as its `request()` does). */
class RequestAborted extends Error {
  override name = 'AbortError';
  readonly code = 'UND_ERR_ABORTED';
}

/**
 * A call under way. `status` and `headers` are the answer's once its head has come (null and
 * empty before): a call that fails after it failed on the way back, not before the upstream saw it.
 */
export class Exchange {
  status: number | null = null;
  headers: Exchanged['headers'] = {};
  readonly done: Promise<Exchanged>;
  private resolve!: (answer: Exchanged) => void;
  private reject!: (error: unknown) => void;
  private abortCall: ((reason: Error) => void) | null = null;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private readonly onAbort = () => this.abort(this.signal.reason);

  /** `limit`: a larger body is refused as malformed as soon as its length or its count says so. */
  constructor(
    pool: Pool,
    options: Dispatcher.DispatchOptions,
    private readonly signal: RequestSignal,
    private readonly limit: number,
  ) {
    this.done = new Promise<Exchanged>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Aborted already: nothing is sent.
    if (signal.aborted) {
      this.onError(reasonOf(signal.reason));
      return;
    }
    // Removed when the call settles, however it does: `on`, not `once`, which wraps each listener.
    signal.on('abort', this.onAbort);
    pool.dispatch(options, this as unknown as Dispatcher.DispatchHandler);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.signal.aborted) abort(reasonOf(this.signal.reason));
    else this.abortCall = abort;
  }

  onHeaders(statusCode: number, rawHeaders: RawHeaders): boolean {
    // 1xx: informational, the answer's head is still to come.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headers = parseHeaders(rawHeaders);
    const declared = this.headers['content-length'];
    if (typeof declared === 'string' && Number(declared) > this.limit) this.abort(malformedUpstreamBody());
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.abort(malformedUpstreamBody());
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settle()) this.resolve({ statusCode: this.status!, headers: this.headers, chunks: this.chunks });
  }

  onError(error: Error): void {
    if (this.settle()) this.reject(error);
  }

  /**
   * Through undici once it has the call (it then tells onError); before that, failed here and
   * now, and undici aborts it when it comes to connect it (onConnect).
   */
  private abort(reason: unknown): void {
    const error = reasonOf(reason);
    if (this.abortCall) this.abortCall(error);
    else this.onError(error);
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.signal.removeListener('abort', this.onAbort);
    return true;
  }
}

const reasonOf = (reason: unknown): Error =>
  reason instanceof Error ? reason : new RequestAborted('The upstream call was aborted.');
