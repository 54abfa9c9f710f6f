// The two subscription clients frontends use, pointed at a harness: graphql-sse (distinct
// connections mode, as yoga serves it) and graphql-ws (over the `ws` package: Node 20 has no
// WebSocket of its own). Each gives an async iterator of execution results.
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Harness } from '../harness.ts';

export type Transport = 'sse' | 'ws';

export interface Subscription {
  // biome-ignore lint/suspicious/noExplicitAny: results are inspected field by field.
  next(): Promise<IteratorResult<any>>;
  return(): Promise<unknown>;
  dispose(): void;
}

export function subscribe(
  h: Harness,
  transport: Transport,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Subscription {
  const authorization: Record<string, string> = key === null ? {} : { Authorization: `Bearer ${key}` };
  if (transport === 'sse') {
    const client = createSseClient({ url: h.url, headers: authorization, retryAttempts: 0 });
    const iterator = client.iterate({ query, variables });
    return {
      next: () => iterator.next(),
      return: () => iterator.return?.() ?? Promise.resolve(),
      dispose: () => client.dispose(),
    };
  }
  const client = createWsClient({
    url: h.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: authorization,
    retryAttempts: 0,
    lazy: true,
  });
  const iterator = client.iterate({ query, variables });
  return {
    next: () => iterator.next(),
    return: () => iterator.return?.() ?? Promise.resolve(),
    dispose: () => void client.dispose(),
  };
}
