// What an open SSE subscriber holds (server/sse-door.ts, server/sse-writer.ts): its connection and its
// place in the stream, not the fetch Request and Response yoga answered it with (through
// @whatwg-node/server's Node adapter, each subscriber kept both, with their headers, body reader
// and abort signal: 5 KB of a 16 KB subscriber). The door reads the body itself, so the body
// limit, GET subscriptions and yoga's refusals are checked through it too.
import { request } from 'node:http';
import v8 from 'node:v8';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rawSse } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const FEED = 'subscription { activityAdded(projectId: "1") { id activity } }';
const SUBSCRIBERS = 200;
const MAX_BODY_BYTES = 2_000;

// The classes yoga answers with (@whatwg-node/fetch's, one per process, whichever yoga made them).
const { Request: FetchRequest, Response: FetchResponse } = createYoga({
  schema: createSchema({ typeDefs: 'type Query { a: Int }' }),
}).fetchAPI;

/** Live objects of the class (after a full garbage collection). */
const live = (kind: abstract new (...args: never[]) => unknown) =>
  v8.queryObjects(kind as never, { format: 'count' }) as number;

/** An SSE request as node's client sends it: status, content type and body text. */
function sseRequest(
  url: string,
  init: { method: string; body?: string; chunked?: boolean; firstBytes?: boolean },
): Promise<{ status: number; type: string; connection: string; headerNames: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: init.method,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer phx_full',
        ...(init.body !== undefined && !init.chunked
          ? { 'content-length': Buffer.byteLength(init.body) }
          : {}),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // A stream's first event (or its first bytes) is enough; a refusal ends by itself.
        if (init.firstBytes || text.includes('event: next')) req.destroy();
      });
      const done = () =>
        resolve({
          status: res.statusCode!,
          type: String(res.headers['content-type']),
          connection: String(res.headers.connection),
          headerNames: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
          text,
        });
      res.on('end', done).on('close', done);
    });
    req.on('error', reject);
    if (init.body !== undefined) {
      // Chunked: in pieces, with no length declared.
      if (init.chunked)
        for (let i = 0; i < init.body.length; i += 500) req.write(init.body.slice(i, i + 500));
      else req.write(init.body);
    }
    req.end();
  });
}

describe('an open SSE subscriber', { timeout: 60_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        ACTIVITY_POLL_MS: '60000',
        MAX_SUBSCRIPTIONS_PER_KEY: String(SUBSCRIBERS),
        MAX_BODY_BYTES: String(MAX_BODY_BYTES),
        LOG_LEVEL: 'silent',
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it(`holds no fetch Request or Response, and no promise: ${SUBSCRIBERS} subscribers, and each still gets the event`, async () => {
    const requestsBefore = live(FetchRequest);
    const responsesBefore = live(FetchResponse);
    const promisesBefore = live(Promise);
    const streams = Array.from({ length: SUBSCRIBERS }, () => rawSse(h, 'phx_full', FEED, {}));
    await Promise.all(streams.map((s) => s.ready));
    await until(() => h.live.slots.open === SUBSCRIBERS, 'every slot');

    // A few may be in flight (the shared run's, the poller's); one per subscriber is a leak.
    expect(live(FetchRequest) - requestsBefore).toBeLessThan(10);
    expect(live(FetchResponse) - responsesBefore).toBeLessThan(10);
    // An idle subscriber waits for its next result without a promise of its own (the writer is
    // told when one comes); waiting on one, with its reactions, was 3 promises a subscriber.
    // This process's clients (rawSse) hold one each, reading their streams.
    expect(live(Promise) - promisesBefore).toBeLessThan(2 * SUBSCRIBERS);

    await h.gql(
      'mutation { createDestinationConfig(input: { projectId: "1", plugin: 1, order: 3, name: "Seen by all" }) { destinationConfig { id } } }',
      {},
      'phx_full',
    );
    await until(() => streams.every((s) => s.events.length === 1), 'the event on every stream');
    expect(new Set(streams.map((s) => s.events[0])).size).toBe(1);

    for (const s of streams) s.close();
    await until(() => h.live.slots.open === 0, 'every slot given back');
  });

  it('is refused a body over MAX_BODY_BYTES, declared or chunked, with 413, its connection closed and no upstream call', async () => {
    const body = JSON.stringify({ query: `${FEED} # ${'x'.repeat(MAX_BODY_BYTES)}` });
    for (const chunked of [false, true]) {
      const answer = await sseRequest(h.url, { method: 'POST', body, chunked });
      expect(answer.status).toBe(413);
      // The rest of the body is never read: the connection is not kept for another request.
      expect(answer.connection).toBe('close');
      expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    }
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('subscribes over GET (an EventSource), and hears a bad document refused as over any transport', async () => {
    const url = new URL(h.url);
    url.searchParams.set('query', FEED);
    const stream = await sseRequest(url.href, { method: 'GET', firstBytes: true });
    expect(stream.status).toBe(200);
    expect(stream.type).toBe('text/event-stream');
    expect(stream.text.startsWith(':\n\n')).toBe(true);
    // The head as yoga made it, each header once (the door writes it whole, as a list).
    expect(stream.headerNames).toEqual(expect.arrayContaining(['cache-control', 'x-request-id']));
    expect(new Set(stream.headerNames).size, JSON.stringify(stream.headerNames)).toBe(
      stream.headerNames.length,
    );

    const refused = await sseRequest(h.url, {
      method: 'POST',
      body: JSON.stringify({ query: 'subscription {' }),
    });
    expect(refused.text).toContain('"code":"BAD_USER_INPUT"');
    await until(() => h.live.slots.open === 0, 'no slot left taken');
  });
});
