// The gateway's Node request listener: a request that asks for an event stream (a subscription,
// a live query, @defer over SSE) comes in by this door; every other request goes to yoga's own
// Node adapter (@whatwg-node/server) as it is.
//
// Why a door of its own: an SSE answer stays open for as long as its subscriber does, and
// @whatwg-node/server keeps, for all that time, what it made to answer it: the fetch Request
// (its headers, URL, body reader and abort signal), the Response, and their listeners on node's
// request and response: a large share of what a subscriber costs (docs/performance.md). Here
// yoga answers the same request through its fetch handler (every plugin, limit and hook as
// before), and the stream's events are written to node's response as
// they come (server/sse-writer.ts); nothing of the fetch objects is left once the stream has started.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { Gateway } from '../app.ts';
import { Subscriber } from '../live/shared-streams.ts';
import { eventStreamOf, writeEvents } from './sse-writer.ts';
import { canTake, TakenConnection } from './taken-connection.ts';

/** Whether the request is one that may be answered with an event stream. */
function asksForEventStream(req: IncomingMessage): boolean {
  return (
    (req.method === 'POST' || req.method === 'GET') && !!req.headers.accept?.includes('text/event-stream')
  );
}

/** A request's body as read here; `whole` is false when it was over the limit and left unread. */
interface ReadBody {
  bytes: Buffer | undefined;
  whole: boolean;
}

/**
 * The request's body, read whole. A body over `limit` is read no further (its declared length,
 * or one byte past the limit), so that server/body-size.ts refuses it as it refuses any other.
 */
function bodyOf(req: IncomingMessage, limit: number): Promise<ReadBody> {
  if (req.method === 'GET') return Promise.resolve({ bytes: undefined, whole: true });
  if (Number(req.headers['content-length']) > limit)
    return Promise.resolve({ bytes: Buffer.alloc(0), whole: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (error) reject(error);
      else resolve({ bytes: Buffer.concat(chunks, size), whole: size <= limit });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle();
      }
    };
    const onEnd = () => settle();
    const onClose = () => settle(new Error('the client left before its request was whole'));
    req.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
  });
}

/** The fetch Request yoga answers: node's, with its body already read. */
function fetchRequestOf(gateway: Gateway, req: IncomingMessage, body: Buffer | undefined): Request {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  return new gateway.fetchAPI.Request(url, {
    method: req.method,
    headers: req.headers as Record<string, string>,
    // A Buffer is a Uint8Array, which fetch takes; TypeScript's lib types disagree on its buffer.
    body: body as BodyInit | undefined,
  });
}

/**
 * The head of yoga's answer, as a flat list of names and values (repeats kept), with the
 * connection closed after it when `close`.
 */
function headOf(response: Response, close: boolean): string[] {
  const head: string[] = [];
  response.headers.forEach((value, name) => {
    // Names as they were given (node-fetch's Headers keeps their case until changed).
    const lower = name.toLowerCase();
    if (lower !== 'set-cookie' && !(close && lower === 'connection')) head.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie?.() ?? []) head.push('set-cookie', cookie);
  if (close) head.push('connection', 'close');
  return head;
}

/**
 * Writes yoga's answer to node's response: an event stream as its results come, the rest as it
 * is. The head is given to writeHead whole, as a list: node then keeps only the head's text for
 * as long as the response is open, not a map of every header besides (an open event stream holds
 * its response for as long as its subscriber stays).
 *
 * A subscription's or live query's stream (a Subscriber of live/shared-live-work.ts) is written
 * to its connection, taken from node's HTTP server once the head is out
 * (server/taken-connection.ts), and the head says the connection closes after it. Only theirs: their
 * request's lifetime has ended when they subscribed, where any other stream's (@defer, @stream)
 * still watches node's response for its client leaving (context.ts).
 */
function send(response: Response, res: ServerResponse, close: boolean, stalledReaderMs: number): void {
  const results = eventStreamOf(response);
  const takes = results instanceof Subscriber && canTake(res);
  if (!res.destroyed)
    res.writeHead(response.status, response.statusText || undefined, headOf(response, close || takes));
  if (results) {
    writeEvents(results, (takes && TakenConnection.take(res)) || res, stalledReaderMs);
    return;
  }
  if (res.destroyed) {
    discard(response.body);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  // pipeline: a body that fails ends the response (destroyed), and nothing is left unhandled.
  pipeline(Readable.from(response.body), res, () => {});
}

/**
 * A body nobody will read (its client left while it was being answered): cancelled, so that what
 * it would have streamed stops. yoga's own SSE body throws when cancelled before it started.
 */
function discard(body: ReadableStream | null): void {
  try {
    body?.cancel().catch(() => {});
  } catch {
    // Nothing started, nothing to stop.
  }
}

/** What the door is told of the gateway's settings. */
export interface DoorOptions {
  maxBodyBytes: number;
  /** How long an event stream's client may take none of the bytes waiting for it (STALLED_READER_MS). */
  stalledReaderMs: number;
}

async function serveEventStream(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  options: DoorOptions,
): Promise<void> {
  const body = await bodyOf(req, options.maxBodyBytes);
  const request = fetchRequestOf(gateway, req, body.bytes);
  const response = await gateway.handleRequest(request, { req, res } as never);
  // The rest of a body over the limit is never read: the connection closes after the refusal,
  // rather than sit with it unread, holding a place under MAX_CONNECTIONS.
  send(response, res, !body.whole, options.stalledReaderMs);
}

/** Node's listener for the gateway's HTTP server. */
export function gatewayListener(gateway: Gateway, options: DoorOptions): RequestListener {
  return (req, res) => {
    if (!asksForEventStream(req)) {
      void gateway(req, res);
      return;
    }
    serveEventStream(gateway, req, res, options).catch(() => {
      // The client left before its request was whole, or yoga failed outside its own error
      // handling (which answers what fails within): nothing of what was thrown is shown.
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
      else res.destroy();
    });
  };
}
