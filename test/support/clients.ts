// The two subscription clients frontends use, pointed at a harness: graphql-sse (distinct
// connections mode, as yoga serves it) and graphql-ws (over the `ws` package, as a Node service
// may use it). Each gives an async iterator of execution results.
import { type ClientRequest, request } from 'node:http';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Harness } from './harness.ts';
import { settle } from './wait.ts';

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

/** A GraphQL POST to a gateway's `url` with `key` (and more `headers`): the answer as it comes. */
export function postQuery(
  url: string,
  query: string,
  {
    key = 'phx_full',
    variables = {},
    headers = {},
  }: { key?: string; variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

/** A raw SSE subscription (graphql-sse's distinct connections mode): the `data:` of each event. */
export function rawSse(h: Harness, key: string, query: string, variables: Record<string, unknown>) {
  const events: string[] = [];
  let opened: ClientRequest | null = null;
  let ended = false;
  const ready = new Promise<void>((resolve, reject) => {
    const req = request(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${key}`,
      },
    });
    opened = req;
    let buffer = '';
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const match = /^event: next\ndata: (.*)$/s.exec(buffer.slice(0, end));
          if (match) events.push(match[1]!);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('error', () => undefined);
      res.on('close', () => {
        ended = true;
      });
      resolve();
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
  return {
    events,
    ready,
    close: () => opened?.destroy(),
    /** Whether the stream has ended (the server closed it, or `close`). */
    get ended() {
      return ended;
    },
  };
}

/**
 * The item ids an `activityAdded { itemId }` stream delivers, until it has `count` of them or
 * `quietMs` pass without one; a result with errors fails the test.
 */
export async function takeItemIds(stream: Subscription, count: number, quietMs = 10_000): Promise<string[]> {
  const items: string[] = [];
  while (items.length < count) {
    const step = await Promise.race([stream.next(), settle(quietMs).then(() => null)]);
    if (!step || step.done) break;
    if (step.value.errors) throw new Error(`the stream failed: ${JSON.stringify(step.value.errors)}`);
    items.push(step.value.data.activityAdded.itemId);
  }
  return items;
}
