// The HTTP surface: queries over GET, no mutation over GET, CORS off unless allowed, no batching,
// cancellation when the client goes away, a bounded number of upstream sockets, and logs that
// never carry a key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

describe('HTTP behaviour', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec', env: { UPSTREAM_MAX_CONNECTIONS: '2' } });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.reset();
    h.upstream.faults.latency = { latencyMs: 0, jitterMs: 0 };
  });

  const get = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${h.url}?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'application/json', authorization: 'Bearer phx_full', ...headers },
    });

  it('refuses a mutation over GET, with no upstream call', async () => {
    const response = await get('mutation { deleteDestinationConfig(input: { id: "x" }) { deletedId } }');
    expect(response.status).toBe(405);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('serves a query over GET with no extra header (urql’s default)', async () => {
    const simple = await get('{ project(projectId: "1") { name } }');
    expect(simple.status).toBe(200);
    expect(await simple.json()).toEqual({ data: { project: { name: 'Hedgebox (production)' } } });
  });

  it('answers other methods with METHOD_NOT_ALLOWED, and no upstream call', async () => {
    const response = await fetch(h.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: '{ project(projectId: "1") { name } }' }),
    });
    expect(response.status).toBe(405);
    expect(
      ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code,
    ).toBe('METHOD_NOT_ALLOWED');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses bodies that are not JSON with UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const { status } = await h.post(JSON.stringify({ query: '{ project(projectId: "1") { name } }' }), {
        authorization: 'Bearer phx_full',
        'content-type': contentType,
      });
      expect(status).toBe(415);
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('answers no CORS headers when no origin is allowed', async () => {
    const response = await fetch(h.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows exactly the configured CORS origins', async () => {
    const cors = await startHarness({ env: { CORS_ORIGINS: 'https://app.example, https://admin.example' } });
    try {
      const ask = (origin: string) =>
        fetch(cors.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect((await ask('https://app.example')).headers.get('access-control-allow-origin')).toBe(
        'https://app.example',
      );
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).not.toBe(
        'https://evil.example',
      );
    } finally {
      await cors.close();
    }
  });

  it('refuses batched operations', async () => {
    const { status, body } = await h.post(
      JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
      {
        authorization: 'Bearer phx_full',
      },
    );
    expect(status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('cancels its upstream requests when the client goes away', async () => {
    h.upstream.faults.add({ path: '/api/projects/1/', action: { kind: 'delay', ms: 5_000 } });
    const controller = new AbortController();
    const pending = fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: '{ project(projectId: "1") { name } }' }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    await until(() => h.upstreamCalls().length > 0, 'the call upstream');
    controller.abort();
    expect(await pending).toBe('aborted');
    const [call] = h.upstreamCalls();
    await until(() => call!.end > 0, 'the upstream call ended');
    // Closed by the gateway before the upstream answered.
    expect(call!.status).toBeNull();
  });

  it('keeps at most UPSTREAM_MAX_CONNECTIONS upstream requests in flight, queueing the rest', async () => {
    h.upstream.faults.latency = { latencyMs: 30, jitterMs: 0 };
    const fields = Array.from(
      { length: 6 },
      (_, i) => `c${i}: destinationConfig(databaseId: ${i + 1}) { name }`,
    ).join(' ');
    const { body } = await h.gql(`{ project(projectId: "1") { ${fields} } }`);
    expect(body.errors).toBeUndefined();
    const calls = h.upstreamCalls();
    expect(calls).toHaveLength(6);
    const inFlightAt = (t: number) => calls.filter((c) => c.start <= t && t < c.end).length;
    expect(Math.max(...calls.map((c) => inFlightAt(c.start)))).toBeLessThanOrEqual(2);
  });

  it('logs one line per operation with its name, upstream calls and error codes, and never a key', async () => {
    h.logs.length = 0;
    await h.gql(
      'query Named { project(projectId: "1") { name destinationConfigs(first: 1) { totalCount } } }',
      {},
      'phx_full',
    );
    await h.gql(
      'query Rejected { project(projectId: "1") { activityLog { edges { cursor } } } }',
      {},
      'phx_plugin_rw',
    );
    await h.gql('{ project(projectId: "1") { name } }', {}, 'phx_wrong_key_123');
    await h.gql('{ nope }', {}, 'phx_read');
    const lines = h.logs.map((l) => JSON.parse(l));
    const operations = lines.filter((l) => l.msg === 'graphql operation');
    expect(operations).toHaveLength(4);
    expect(operations[0]).toMatchObject({
      operation: 'Named',
      type: 'query',
      upstream: { calls: 2, statuses: { 200: 2 } },
      errors: [],
      durationMs: expect.any(Number),
    });
    expect(operations[1]).toMatchObject({
      operation: 'Rejected',
      upstream: { calls: 1, statuses: { 403: 1 } },
      errors: ['FORBIDDEN'],
    });
    expect(operations[2].errors).toEqual(['UNAUTHENTICATED']);
    expect(operations[3].errors).toEqual(['BAD_USER_INPUT']);
    const text = h.logs.join('\n');
    for (const secret of [
      'phx_full',
      'phx_plugin_rw',
      'phx_wrong_key_123',
      'phx_read',
      'Bearer',
      'authorization',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('counts each status of a retried call in the operation line', async () => {
    h.logs.length = 0;
    h.upstream.faults.add({
      path: 'pipeline_destination_configs',
      action: { kind: 'status', status: 503 },
      times: 1,
    });
    const { body } = await h.gql(
      'query Retried { project(projectId: "1") { destinationConfig(databaseId: 1) { name } } }',
    );
    expect(body.errors).toBeUndefined();
    const line = h.logs.map((l) => JSON.parse(l)).find((l) => l.operation === 'Retried');
    expect(line.upstream).toEqual({ calls: 1, attempts: 2, statuses: { 200: 1, 503: 1 } });
  });
});
