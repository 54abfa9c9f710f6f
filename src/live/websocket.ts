// GraphQL over WebSocket (the graphql-ws protocol) at /graphql, on the gateway's own HTTP server,
// running every operation through the same envelop plugins as HTTP (limits, persisted
// operations are HTTP-only; masking, jit rules, live queries, error codes apply).
// A browser cannot set headers on a WebSocket, so the key comes in the connection_init payload
// as `{"Authorization": "Bearer <key>"}` (or `authorization`), else from the upgrade request's
// own Authorization header. It is held for that socket only.
//
// `ws` and graphql-ws are loaded when the first socket connects: most deployments never open
// one, and at rest they held ~1.7 MB of heap in every process (npm run bench: idle RSS).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ExecutionArgs } from 'graphql';
import type { WebSocketServer } from 'ws';
import type { Gateway } from '../app.ts';

type SocketExtra = {
  request: IncomingMessage;
};

function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage) {
  const given = params?.Authorization ?? params?.authorization;
  if (typeof given === 'string') return given;
  return request.headers.authorization ?? null;
}

export interface GraphQLWebSocket {
  /** Shutdown: tells every client the server is going away, then closes. */
  close(): Promise<void>;
}

export function attachGraphQLWebSocket(server: Server, gateway: Gateway): GraphQLWebSocket {
  let loading: Promise<Sockets> | null = null;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://gateway.invalid').pathname !== gateway.graphqlEndpoint) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    // ws handles the socket's errors once it has it; until then a reset must not crash us.
    const beforeHandover = () => socket.destroy();
    socket.on('error', beforeHandover);
    loading ??= startSockets(gateway);
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

async function startSockets(gateway: Gateway): Promise<Sockets> {
  const [{ WebSocketServer }, { useServer }] = await Promise.all([import('ws'), import('graphql-ws/use/ws')]);
  const sockets = new WebSocketServer({ noServer: true });
  const disposable = useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      execute: (args) => (args.rootValue as { execute: (a: ExecutionArgs) => never }).execute(args),
      subscribe: (args) => (args.rootValue as { subscribe: (a: ExecutionArgs) => never }).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const headers = new Headers();
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request);
        if (authorization) headers.set('authorization', authorization);
        const requestId = ctx.extra.request.headers['x-request-id'];
        if (typeof requestId === 'string') headers.set('x-request-id', requestId);
        // The context is built from a request that carries the socket's key, as over HTTP.
        const request = new Request(`http://gateway.invalid${gateway.graphqlEndpoint}`, { headers });
        const { schema, execute, subscribe, contextFactory, parse, validate } = gateway.getEnveloped({
          request,
          params: payload,
        });
        let document: ReturnType<typeof parse>;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as never];
        }
        const args: ExecutionArgs = {
          schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors as never;
        return args;
      },
    },
    sockets,
  );
  return { sockets, dispose: () => disposable.dispose() as Promise<void> };
}
