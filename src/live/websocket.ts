// GraphQL over WebSocket (the graphql-ws protocol) at /graphql, on the gateway's own HTTP server,
// running every operation through the same envelop plugins as HTTP (limits, persisted
// operations are HTTP-only; masking, jit rules, live queries, error codes apply).
// A browser cannot set headers on a WebSocket, so the key comes in the connection_init payload
// as `{"Authorization": "Bearer <key>"}` (or `authorization`), else from the upgrade request's
// own Authorization header. It is held for that socket only.
import type { IncomingMessage, Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
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
  const sockets = new WebSocketServer({ server, path: gateway.graphqlEndpoint });
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
  return {
    close: async () => {
      for (const client of sockets.clients) client.close(1001, 'Going away');
      await disposable.dispose();
    },
  };
}
