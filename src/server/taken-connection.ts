// A subscriber's event stream (a subscription's, a live query's) is the last answer its
// connection gives: once its head is written, the connection is taken from node's HTTP server, as
// node takes one that upgrades to a WebSocket (its `onParserExecuteCommon`), and the stream is
// written to the socket itself.
//
// Why: an open answer keeps, for as long as its subscriber stays, node's whole HTTP machinery for
// the connection: the request, the response, the HTTP parser (a native object with room for 32
// header names and values) and their listeners. Taken, a subscriber holds its socket and this
// object, and costs less memory (docs/performance.md, "Live fan-out").
//
// What node's server did for the connection, this does after: it frames the body in chunks (as
// the head said), ends the stream when the client half-closes, reads and drops what the client
// sends after its request (the head said `connection: close`), and closes what it holds when the
// gateway's shutdown runs out of time (closeTakenConnections). What it relies on of node's
// internals (the parser's freeing, the server's listener names) is checked before a connection
// is taken; where any of it is missing, the stream stays node's response, as any other.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

interface NodeHttpParser {
  /** The request being parsed, or the last one parsed. */
  incoming: IncomingMessage | null;
  finish(): unknown;
}
/** node's list of a server's connections: `active()`, the parsers with a request begun and not whole. */
interface NodeConnectionsList {
  active(): NodeHttpParser[];
}
type FreeParser = (parser: NodeHttpParser, req: IncomingMessage | undefined, socket: Socket) => void;

/** node's own freeing of a connection's HTTP parser (what its upgrade path calls). */
const freeParser = (() => {
  try {
    const common = createRequire(import.meta.url)('_http_common') as { freeParser?: unknown };
    return typeof common.freeParser === 'function' ? (common.freeParser as FreeParser) : null;
  } catch {
    return null;
  }
})();

/** The listeners node's HTTP server puts on a connection's socket, by event (node 24's and 26's names). */
const SERVER_LISTENERS: [event: string, name: string][] = [
  ['data', 'bound socketOnData'],
  ['end', 'bound socketOnEnd'],
  ['close', 'bound socketOnClose'],
  ['drain', 'bound socketOnDrain'],
  ['error', 'socketOnError'],
  ['timeout', 'socketOnTimeout'],
  ['resume', 'onSocketResume'],
  ['pause', 'onSocketPause'],
];

type ServerSocket = Socket & { parser?: NodeHttpParser | null; _httpMessage?: unknown; server?: Server };

/** The server's list of connections (node keeps it under a symbol), or null where it has none. */
function connectionsOf(server: Server | undefined): NodeConnectionsList | null {
  if (!server) return null;
  const key = Object.getOwnPropertySymbols(server).find((s) => s.description === 'http.server.connections');
  const list = key && (server as unknown as Record<symbol, Partial<NodeConnectionsList>>)[key];
  return typeof list?.active === 'function' ? (list as NodeConnectionsList) : null;
}

/** Whether node's parser holds nothing of a later request: no request begun and not yet whole. */
function parserBetweenRequests(socket: ServerSocket): boolean {
  const connections = connectionsOf(socket.server);
  return connections !== null && !connections.active().includes(socket.parser!);
}

/** The server's own listeners on the socket, every one of them; null if any is not where expected. */
function serverListenersOf(socket: Socket): [string, (...args: unknown[]) => void][] | null {
  const found: [string, (...args: unknown[]) => void][] = [];
  for (const [event, name] of SERVER_LISTENERS) {
    const listener = socket.listeners(event).find((fn) => fn.name === name);
    if (!listener) return null;
    found.push([event, listener as (...args: unknown[]) => void]);
  }
  return found;
}

/**
 * Whether the response's connection can be taken once its head is written: its request is whole
 * and the last the connection sent (node's parser holds no later one, pipelined behind it, whole
 * or begun), and node's server is the one this knows. Node runs queued promise reactions from
 * within its parse of a later request's body and of its headers (handed to JS 32 at a time). A
 * parser freed then goes on parsing without its server's callbacks: at the end of the headers it
 * throws out of the process, and a body's parser is put back in the server's list of
 * connections without a socket, which node's closeIdleConnections then fails on.
 */
export function canTake(res: ServerResponse): boolean {
  const socket = res.socket as ServerSocket | null;
  return (
    freeParser !== null &&
    res.req.complete &&
    socket !== null &&
    !socket.destroyed &&
    socket.parser?.incoming === res.req &&
    parserBetweenRequests(socket) &&
    socket._httpMessage === res &&
    serverListenersOf(socket) !== null
  );
}

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
const chunks = new WeakMap<Buffer, Buffer>();

/** `bytes` as one chunk of a chunked body, made once per buffer (a shared event's bytes are one). */
function chunkOf(bytes: Buffer): Buffer {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/** The connections each server's responses gave up, for its shutdown to close. */
const takenBy = new WeakMap<Server, Set<Socket>>();

function remember(server: Server, socket: Socket): void {
  const taken = takenBy.get(server) ?? new Set<Socket>();
  takenBy.set(server, taken);
  taken.add(socket);
  socket.once('close', () => taken.delete(socket));
}

/** Destroys the connections taken from `server`'s responses (its shutdown's grace ran out). */
export function closeTakenConnections(server: Server): void {
  for (const socket of takenBy.get(server) ?? []) socket.destroy();
}

/** An event stream's connection, taken from node's HTTP server: what sse-writer.ts writes to. */
export class TakenConnection {
  private constructor(
    readonly socket: Socket,
    private readonly chunked: boolean,
  ) {}

  get destroyed(): boolean {
    return this.socket.destroyed;
  }

  get writableLength(): number {
    return this.socket.writableLength;
  }

  write(bytes: Buffer): boolean {
    return this.socket.write(this.chunked ? chunkOf(bytes) : bytes);
  }

  /** The last bytes, then the connection closes once they are out (as node's `destroySoon`). */
  end(bytes: Buffer): void {
    const socket = this.socket;
    socket.end(this.chunked ? Buffer.concat([chunkOf(bytes), LAST_CHUNK]) : bytes);
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  }

  destroy(): void {
    this.socket.destroy();
  }

  once(event: 'close' | 'drain', listener: () => void): void {
    this.socket.once(event, listener);
  }

  /**
   * Takes the connection of `res`, whose head is written (with `connection: close`): null where
   * it cannot (see canTake), and `res` is then written as it is.
   */
  static take(res: ServerResponse): TakenConnection | null {
    if (!canTake(res)) return null;
    const socket = res.socket as ServerSocket;
    // The head goes out now, through node, while the connection is still its own.
    res.flushHeaders();
    const unsent = (res as unknown as { outputData?: unknown[] }).outputData;
    if (!Array.isArray(unsent) || unsent.length > 0) return null;
    const listeners = serverListenersOf(socket)!;
    const parser = socket.parser!;
    res.detachSocket(socket);
    for (const [event, listener] of listeners) socket.off(event, listener);
    parser.finish();
    freeParser!(parser, res.req, socket);
    // Read on, as node's upgrade path leaves a socket: what the client sends now is dropped, its
    // half-close ends the stream, and a failure is the socket's end (it closes).
    socket.on('data', () => {});
    socket.resume();
    socket.on('end', () => socket.end());
    socket.on('error', () => {});
    if (socket.server) remember(socket.server, socket);
    return new TakenConnection(socket, res.chunkedEncoding);
  }
}
