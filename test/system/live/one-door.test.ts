// HTTP POST, HTTP GET, SSE and graphql-ws are one door: the same limits, safelist, codes,
// mutations, operation log, metrics and abort on client gone, asserted as one table of
// properties × transports. Where a transport differs by design it says so in the row:
// GET never runs a mutation (METHOD_NOT_ALLOWED), and a WebSocket message over the body limit
// closes the socket (1009: no operation id can be read from a message that is not read).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { sha256 } from '../../../src/persisted-operations/manifest.ts';
import { subscribe } from '../../support/clients.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { parsePrometheus, total } from '../../support/prometheus.ts';
import { settle, until } from '../../support/wait.ts';

const TRANSPORTS = ['post', 'get', 'sse', 'ws'] as const;
type Transport = (typeof TRANSPORTS)[number];

// biome-ignore lint/suspicious/noExplicitAny: results are inspected field by field.
type Result = any;

interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  key?: string | null;
  /** Aborted (the client leaves) once this resolves. */
  leaveWhen?: Promise<unknown>;
}

/** The first result of an operation over `transport` (null when the client left first). */
async function run(h: Harness, transport: Transport, op: Operation): Promise<Result | null> {
  const key = op.key === undefined ? 'phx_full' : op.key;
  const authorization: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  if (transport === 'post' || transport === 'get') {
    const abort = new AbortController();
    void op.leaveWhen?.then(() => abort.abort());
    const url = new URL(h.url);
    let init: RequestInit = {
      headers: { accept: 'application/json', ...authorization },
      signal: abort.signal,
    };
    if (transport === 'get') {
      url.searchParams.set('query', op.query);
      if (op.variables) url.searchParams.set('variables', JSON.stringify(op.variables));
    } else {
      init = {
        ...init,
        method: 'POST',
        headers: { ...init.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: op.query, variables: op.variables ?? {} }),
      };
    }
    try {
      const response = await fetch(url, init);
      return await response.json();
    } catch {
      return null;
    }
  }
  const s = subscribe(h, transport, key, op.query, op.variables ?? {});
  const left = op.leaveWhen?.then(() => {
    s.dispose();
    return null;
  });
  try {
    const step = await Promise.race([s.next(), ...(left ? [left] : [])]);
    return step === null ? null : step.value;
  } catch (error) {
    return { thrown: error };
  } finally {
    s.dispose();
  }
}

describe.each(TRANSPORTS)('one door: %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_TOKEN: 'metrics-token-0123456789', UPSTREAM_RETRIES: '2' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('a parse error is BAD_USER_INPUT, with no http extension and no upstream call', async () => {
    const result = await run(h, transport, { query: '{ project(projectId: "1") { name }' });
    expect(result.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('a validation error is BAD_USER_INPUT, with no http extension and no upstream call', async () => {
    const result = await run(h, transport, { query: '{ project(projectId: "1") { nope } }' });
    expect(result.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('variables nested deeper than the bound are BAD_USER_INPUT, with no upstream call', async () => {
    let deep: unknown = 1;
    // As deep as the clients can write (JSON.stringify has its own stack); over GET, as deep as
    // fits in a URL (node refuses request lines and headers over 16 KB).
    for (let i = 0; i < (transport === 'get' ? 200 : 3_000); i++) deep = { a: deep };
    const result = await run(h, transport, {
      query: 'query($p: String!) { project(projectId: $p) { name } }',
      variables: { p: '1', unused: deep },
    });
    expect(result.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('a mutation runs (GET: METHOD_NOT_ALLOWED, by design)', async () => {
    const result = await run(h, transport, {
      query:
        'mutation { createDestinationConfig(input: {projectId: "1", plugin: 1, order: 9, name: "Door"}) { destinationConfig { name } } }',
    });
    if (transport === 'get') {
      expect(result.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
      expect(h.upstreamCalls()).toHaveLength(0);
    } else {
      expect(result.errors).toBeUndefined();
      expect(result.data.createDestinationConfig.destinationConfig.name).toBe('Door');
    }
  });

  it('logs the operation and counts it in the metrics', async () => {
    const name = `Door${transport}`;
    const result = await run(h, transport, { query: `query ${name} { project(projectId: "1") { name } }` });
    expect(result.data.project.name).toBe('Hedgebox (production)');
    await until(() => h.logs.some((l) => l.includes(`"operation":"${name}"`)), 'the operation’s log line');
    expect(h.logs.filter((l) => l.includes(`"operation":"${name}"`))).toHaveLength(1);
    const metrics = await fetch(h.url.replace('/graphql', '/metrics'), {
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    const samples = parsePrometheus(await metrics.text());
    expect(total(samples, 'gateway_graphql_operations_total', { operation: name })).toBe(1);
  });

  it('a client that leaves during a 429 wait gets no retry', async () => {
    h.upstream.faults.add({
      path: '/api/projects/1/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      times: 1,
    });
    let firstAnswered: () => void = () => {};
    const leaveWhen = new Promise<void>((resolve) => {
      firstAnswered = resolve;
    });
    const watching = (async () => {
      await until(
        () => h.upstreamCalls().some((c) => c.status === 429),
        'h.upstreamCalls().some((c) => c.status === 429)',
      );
      firstAnswered();
    })();
    const result = await run(h, transport, { query: '{ project(projectId: "1") { name } }', leaveWhen });
    await watching;
    expect(result).toBeNull();
    await settle(1_500);
    expect(h.upstreamCalls({ path: '/api/projects/1/' })).toHaveLength(1);
  });
});

describe('one door: a refused operation fails alone over graphql-ws', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { MAX_SUBSCRIPTIONS_PER_KEY: '1' } });
  });
  afterAll(() => h.close());

  function client(authorization: string | null) {
    return createWsClient({
      url: h.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: authorization === null ? {} : { Authorization: authorization },
      retryAttempts: 0,
      // One socket for the whole test: a lazy client would close it between operations.
      lazy: false,
    });
  }

  async function first(c: ReturnType<typeof client>, query: string): Promise<Result> {
    const iterator = c.iterate({ query });
    try {
      return (await iterator.next()).value;
    } finally {
      await iterator.return?.();
    }
  }

  it('a socket with no key is closed at connection_init (4401), saying how to send one', async () => {
    const c = client(null);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      c.on('closed', (event) => resolve(event as { code: number; reason: string }));
    });
    const refused = first(c, 'query @live { project(projectId: "1") { name } }').catch(
      (error: unknown) => error,
    );
    const event = await closed;
    expect(event.code).toBe(4401);
    expect(event.reason).toBe('Send your PostHog personal API key as "Authorization: Bearer <key>".');
    await refused;
    await c.dispose();
  });

  it('a key with CR/LF is UNAUTHENTICATED for each operation, never logged; the socket goes on', async () => {
    const c = client('Bearer phx_\r\nsecret-in-header');
    let closed: unknown = null;
    c.on('closed', (event) => {
      closed = event;
    });
    const refused = await first(c, 'query @live { project(projectId: "1") { name } }');
    expect(refused.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(refused)).not.toContain('secret-in-header');
    const again = await first(c, '{ project(projectId: "1") { name } }');
    expect(again.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(closed).toBeNull();
    await c.dispose();
    expect(h.logs.join('\n')).not.toContain('secret-in-header');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('a @live query over the per-key cap is refused alone', async () => {
    const c = client('Bearer phx_full');
    const live = c.iterate({ query: 'query @live { project(projectId: "1") { name } }' });
    expect((await live.next()).value.data.project.name).toBe('Hedgebox (production)');
    const over = await first(c, 'query @live { project(projectId: "2") { name } }');
    expect(over.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect((await first(c, '{ __typename }')).data).toEqual({ __typename: 'Query' });
    await live.return?.();
    await c.dispose();
  });

  it('a message over MAX_BODY_BYTES closes that socket (1009), writes no line to stderr, and the gateway serves on', async () => {
    // A caller's oversized frame is not the server's fault: graphql-ws's "Internal error … check
    // your implementation" on stderr, once per frame, would let anyone fill the operator's log.
    const consoleError = vi.spyOn(console, 'error');
    const c = client('Bearer phx_full');
    let closedWith = 0;
    c.on('closed', (event) => {
      closedWith = (event as { code: number }).code;
    });
    const big = await first(c, `{ project(projectId: "${'1'.repeat(2 * 1024 * 1024)}") { name } }`).catch(
      (error: unknown) => ({ thrown: error }),
    );
    expect(big).toHaveProperty('thrown');
    expect(closedWith).toBe(1009);
    // (The client in this process logs its own CloseEvent; only the server's lines are counted.)
    const serverLines = consoleError.mock.calls.filter(([first]) => typeof first === 'string');
    expect(serverLines).toEqual([]);
    consoleError.mockRestore();
    await c.dispose();
    expect((await h.gql('{ project(projectId: "1") { name } }')).body.data.project.name).toBe(
      'Hedgebox (production)',
    );
  });
});

describe('one door: the safelist holds on every transport', () => {
  let h: Harness;
  const KNOWN = 'query Known { project(projectId: "1") { name } }';
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'door-'));
    writeFileSync(join(dir, 'persisted.json'), JSON.stringify({ [sha256(KNOWN)]: KNOWN }));
    h = await startHarness({
      env: { PERSISTED_OPERATIONS_FILE: join(dir, 'persisted.json'), PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(() => h.close());

  it.each(
    TRANSPORTS,
  )('%s: a text not in the manifest is PERSISTED_QUERY_ONLY; the manifest text runs', async (transport) => {
    h.reset();
    const refused = await run(h, transport, { query: '{ project(projectId: "2") { name } }' });
    expect(refused.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    expect(h.upstreamCalls()).toHaveLength(0);
    const known = await run(h, transport, { query: KNOWN });
    expect(known.data.project.name).toBe('Hedgebox (production)');
  });
});
