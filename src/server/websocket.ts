// GraphQL over WebSocket (the graphql-ws protocol) at /graphql, on the gateway's own HTTP server.
//
// One door: each `subscribe` message is run as the POST request it stands for, through the
// gateway's own fetch handler, so that a WebSocket operation meets everything an HTTP one does
// (body limit, safelist and persisted operations, limits, codes, masking, the operation log,
// metrics and traces, mutations). Its result (one, or the stream of a subscription, @live or
// @defer) is taken from the pipeline before it would be written (relayed-results.ts) and relayed
// as `next` messages; a request refused before it runs (parse, validation, safelist, limits, no
// key) is relayed the same way, as SSE relays it: that operation fails alone, the socket goes on.
// When the client completes the operation or goes away, the request is aborted, as an HTTP
// client's disconnect aborts it.
//
// A browser cannot set headers on a WebSocket, so the key comes in the connection_init payload
// as `{"Authorization": "Bearer <key>"}` (or `authorization`), else from the upgrade request's
// own Authorization header. It is held for that socket only. Without one the socket is closed;
// sockets per peer and per key, idle sockets and slow readers are bounded
// (server/websocket-admission.ts, slow-readers.ts); each operation is websocket-operations.ts's.
//
// `ws` and graphql-ws are loaded when the first socket connects: most deployments never open
// one, and loaded they stay in the heap of every process.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Gateway } from '../app.ts';
import { watchReadingPace } from './slow-readers.ts';
import { SocketAdmission, type SocketLimits } from './websocket-admission.ts';
import { relay, relayOperation, watchCompletions } from './websocket-operations.ts';

type SocketExtra = {
  request: IncomingMessage;
  socket: WebSocket;
};

export interface WebSocketOptions {
  /** The largest message accepted (MAX_BODY_BYTES and room for the protocol's envelope). */
  maxBodyBytes: number;
  /** A client that takes less than was waiting for it within this long is let go (STALLED_READER_MS). */
  stalledReaderMs: number;
  sockets: SocketLimits;
}

/** What graphql-ws adds around an operation's payload: `{"id": …, "type": "subscribe", …}`. */
const ENVELOPE_BYTES = 1_024;

function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage) {
  const given = params?.Authorization ?? params?.authorization;
  if (typeof given === 'string') return given;
  return request.headers.authorization ?? null;
}

export interface GraphQLWebSocket {
  /** Shutdown: tells every client the server is going away, then closes. */
  close(): Promise<void>;
}

export function attachGraphQLWebSocket(
  server: Server,
  gateway: Gateway,
  options: WebSocketOptions,
): GraphQLWebSocket {
  let loading: Promise<Sockets> | null = null;
  const admission = new SocketAdmission(options.sockets);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://gateway.invalid').pathname !== gateway.graphqlEndpoint) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const leave = admission.admitPeer(request.socket.remoteAddress ?? '');
    if (!leave) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.once('close', leave);
    // ws handles the socket's errors once it has it; until then a reset must not crash us.
    const beforeHandover = () => socket.destroy();
    socket.on('error', beforeHandover);
    loading ??= startSockets(gateway, options, admission);
    loading.then(
      ({ sockets }) => {
        socket.off('error', beforeHandover);
        if (socket.destroyed) return;
        sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
      },
      () => socket.destroy(),
    );
  };
  server.on('upgrade', onUpgrade);
  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      if (!loading) return;
      const { sockets, dispose } = await loading;
      for (const client of sockets.clients) client.close(1001, 'Going away');
      await dispose();
    },
  };
}

interface Sockets {
  sockets: WebSocketServer;
  dispose(): Promise<void>;
}

/**
 * A socket's 'error' is a caller's fault (a frame over maxPayload, a bad frame, a reset), and ws
 * closes the socket itself with the code that says which (1009, 1002, …). graphql-ws would also
 * write "Internal error … Please check your implementation" to stderr each time, which would let
 * anyone fill the operator's log, so its listener (added just before this one) is replaced.
 */
function quietSocketErrors(socket: WebSocket) {
  socket.removeAllListeners('error');
  socket.on('error', () => undefined);
}

async function startSockets(
  gateway: Gateway,
  options: WebSocketOptions,
  admission: SocketAdmission,
): Promise<Sockets> {
  const [{ WebSocketServer }, { useServer }] = await Promise.all([import('ws'), import('graphql-ws/use/ws')]);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxBodyBytes + ENVELOPE_BYTES });
  const operations = new WeakMap<WebSocket, Map<string, AbortController>>();
  const keys = new WeakMap<WebSocket, string>();
  const idle = new WeakMap<WebSocket, (running: number) => void>();
  const disposable = useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      execute: relay,
      subscribe: relay,
      onConnect: (ctx) => {
        const authorization = admission.admitKey(
          ctx.extra.socket,
          authorizationOf(ctx.connectionParams, ctx.extra.request),
        );
        if (!authorization) return false;
        keys.set(ctx.extra.socket, authorization);
        operations.set(ctx.extra.socket, watchCompletions(ctx.extra.socket));
        return true;
      },
      onSubscribe: (ctx, id, payload) => {
        const socket = ctx.extra.socket;
        const requestId = ctx.extra.request.headers['x-request-id'];
        return relayOperation(gateway, id, payload, {
          open: operations.get(socket)!,
          authorization: keys.get(socket) ?? null,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          running: (count) => idle.get(socket)?.(count),
        });
      },
      onComplete: (ctx, id) => {
        // Answered: what the operation still has in flight upstream is cancelled (context.ts).
        const open = operations.get(ctx.extra.socket);
        open?.get(id)?.abort();
        open?.delete(id);
        idle.get(ctx.extra.socket)?.(open?.size ?? 0);
      },
    },
    sockets,
  );
  sockets.on('connection', (socket: WebSocket) => {
    quietSocketErrors(socket);
    idle.set(socket, admission.watchIdle(socket));
    const raw = (socket as unknown as { _socket?: import('node:net').Socket })._socket;
    // ws's terminate, not the socket's destroy: graphql-ws is then told the socket closed.
    if (raw) watchReadingPace(raw, options.stalledReaderMs, () => socket.terminate());
  });
  return { sockets, dispose: () => disposable.dispose() as Promise<void> };
}
