// The operations of a GraphQL WebSocket (server/websocket.ts): each `subscribe` message run as the POST
// request it stands for, through the gateway's fetch handler, its result taken from the pipeline
// (relayed-results.ts) and handed to graphql-ws as a stream to relay; a client's `complete`, or
// its leaving, aborts that request.
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { GraphQLError, parse } from 'graphql';
import type { WebSocket } from 'ws';
import type { Gateway } from '../app.ts';
import { codedError } from '../errors/codes.ts';
import {
  type RelayContext,
  type RelayedResult,
  type RelaySlot,
  requestFor,
  withoutHttp,
} from './relayed-results.ts';

/** What one socket holds for its operations. */
export interface SocketOperations {
  /** Its operations a client may still complete, by id (watchCompletions). */
  open: Map<string, AbortController>;
  /** The socket's key (server/websocket-admission.ts). */
  authorization: string | null;
  /** The upgrade request's x-request-id, if any. */
  requestId: string | undefined;
  /** Told how many operations the socket runs, whenever that changes. */
  running(count: number): void;
}

/** graphql-ws needs a document to pick execute or subscribe; the real one is the request's. */
const RELAYED = parse('{ __typename }');

interface Relayed {
  results: AsyncGenerator<ExecutionResult>;
}

async function* once(result: ExecutionResult): AsyncGenerator<ExecutionResult> {
  yield result;
}

/** The stream graphql-ws relays, and how to stop it when the client completes or leaves. */
interface Answer {
  results: AsyncIterator<ExecutionResult>;
  stop(): Promise<unknown>;
}

function answerOf(result: RelayedResult | undefined): Answer {
  if (result === undefined) return answerOf(codedErrorResult('The operation was cancelled.'));
  if (!(Symbol.asyncIterator in result)) return { results: once(withoutHttp(result)), stop: async () => {} };
  const iterator = result[Symbol.asyncIterator]();
  return {
    results: {
      next: async () => {
        const step = await iterator.next();
        return step.done ? step : { done: false, value: withoutHttp(step.value) };
      },
    },
    stop: async () => iterator.return?.(),
  };
}

const codedErrorResult = (message: string): ExecutionResult => ({
  errors: [codedError('UPSTREAM_UNAVAILABLE', message)],
});

/**
 * The operations of one socket that a client may still complete, by id: graphql-ws learns of an
 * operation only once its onSubscribe has returned, and a query waiting out a 429 would go on
 * after the client completed it or closed the socket. These abort the request at once.
 */
export function watchCompletions(socket: WebSocket): Map<string, AbortController> {
  const open = new Map<string, AbortController>();
  socket.on('message', (data: Buffer) => {
    // Only `complete` matters here; graphql-ws itself reads and answers every message.
    if (!data.includes('"complete"')) return;
    try {
      const message = JSON.parse(String(data)) as { type?: unknown; id?: unknown };
      if (message.type === 'complete' && typeof message.id === 'string') open.get(message.id)?.abort();
    } catch {
      // graphql-ws closes the socket for a message it cannot read.
    }
  });
  socket.on('close', () => {
    for (const controller of open.values()) controller.abort();
  });
  return open;
}

/** graphql-ws's execute and subscribe: the stream relayOperation made. */
export const relay = (args: ExecutionArgs) => (args.rootValue as Relayed).results as never;

/** The gateway's answer to one `subscribe` message: its request run, its results relayed. */
export async function relayOperation(
  gateway: Gateway,
  id: string,
  payload: unknown,
  socket: SocketOperations,
): Promise<ExecutionArgs> {
  const { open } = socket;
  const abort = new AbortController();
  open.set(id, abort);
  const ran = () => socket.running(open.size);
  ran();
  const request = requestFor(
    gateway.graphqlEndpoint,
    socket.authorization,
    socket.requestId,
    payload,
    abort.signal,
  );
  let answer: Answer;
  if (request instanceof GraphQLError) {
    answer = answerOf({ errors: [request] });
  } else {
    const relay: RelaySlot = {};
    const context: RelayContext = { relay };
    // Only an aborted request fails here: the client is gone, and hears nothing.
    await Promise.resolve(gateway.fetch(request, context as never)).catch(() => undefined);
    answer = answerOf(relay.result);
  }
  // graphql-ws calls return() when the client completes the operation or the socket closes.
  const relayed = {
    next: () => answer.results.next(),
    return: async (value: unknown) => {
      open.delete(id);
      ran();
      abort.abort();
      await answer.stop();
      return { done: true as const, value };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  const results = relayed as unknown as AsyncGenerator<ExecutionResult>;
  return { schema: gateway.getEnveloped().schema, document: RELAYED, rootValue: { results } };
}
