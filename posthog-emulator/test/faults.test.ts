import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const LIST = '/api/projects/1/pipeline_destination_configs/';

async function control(upstream: ReferenceUpstream, method: string, path: string, json?: unknown) {
  const response = await fetch(new URL(path, upstream.url), {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('reference upstream knobs', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => {
    upstream.reset();
    upstream.faults.latency = { latencyMs: 0, jitterMs: 0 };
    upstream.throttle.perMinute = null;
  });

  it('answers an injected status for N requests, then normally', async () => {
    upstream.faults.add({
      path: 'pipeline_destination_configs',
      action: { kind: 'status', status: 503 },
      times: 2,
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await rest(upstream, 'GET', LIST)).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('applies a fraction of matching requests: 0 never, 1 always', async () => {
    upstream.faults.add({ path: LIST, action: { kind: 'status', status: 500 }, fraction: 0 });
    expect((await rest(upstream, 'GET', LIST)).status).toBe(200);
    upstream.faults.clear();
    upstream.faults.add({ path: LIST, action: { kind: 'status', status: 500 }, fraction: 1 });
    expect((await rest(upstream, 'GET', LIST)).status).toBe(500);
    expect((await rest(upstream, 'GET', LIST)).status).toBe(500);
  });

  it('matches by method and by a /regex/ path', async () => {
    upstream.faults.add({
      path: '/configs\\/\\d+\\/$/',
      method: 'PATCH',
      action: { kind: 'status', status: 502 },
    });
    expect((await rest(upstream, 'GET', `${LIST}1/`)).status).toBe(200);
    expect((await rest(upstream, 'PATCH', `${LIST}1/`, { json: {} })).status).toBe(502);
  });

  it('resets the connection, and logs the request with no status', async () => {
    upstream.faults.add({ path: LIST, action: { kind: 'reset' }, times: 1 });
    await expect(rest(upstream, 'GET', LIST)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 20));
    expect(upstream.requests.at(-1)).toMatchObject({ path: LIST, status: null });
  });

  it('sends malformed JSON', async () => {
    upstream.faults.add({ path: LIST, action: { kind: 'malformed' }, times: 1 });
    const { status, text, body } = await rest(upstream, 'GET', LIST);
    expect(status).toBe(200);
    expect(body).toBeUndefined();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('delays headers and body by the asked amount (lower bound from its own log)', async () => {
    upstream.faults.add({ path: LIST, action: { kind: 'delay', ms: 120 }, times: 1 });
    upstream.faults.add({ path: `${LIST}1/`, action: { kind: 'slow-body', ms: 120 }, times: 1 });
    expect((await rest(upstream, 'GET', LIST)).status).toBe(200);
    const slow = await rest(upstream, 'GET', `${LIST}1/`);
    expect(slow.body.id).toBe(1);
    for (const entry of upstream.requests) expect(entry.end - entry.start).toBeGreaterThanOrEqual(115);
  });

  it('adds latency to every request', async () => {
    upstream.faults.latency = { latencyMs: 60, jitterMs: 0 };
    await rest(upstream, 'GET', LIST);
    expect(upstream.requests[0]!.end - upstream.requests[0]!.start).toBeGreaterThanOrEqual(55);
  });

  it('throttles per key with an integer Retry-After', async () => {
    upstream.throttle.perMinute = 2;
    await rest(upstream, 'GET', LIST);
    await rest(upstream, 'GET', LIST);
    const third = await rest(upstream, 'GET', LIST);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(third.body).toMatchObject({ type: 'throttled_error', code: 'throttled' });
    expect(third.body.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds?\.$/);
    expect((await rest(upstream, 'GET', LIST, { key: 'phx_read' })).status).toBe(200);
  });

  it('logs method, path, query, Authorization as received, and status', async () => {
    await rest(upstream, 'GET', `${LIST}?limit=5`, {
      headers: { authorization: 'Bearer  phx_read' },
      key: null,
    });
    expect(upstream.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: LIST,
        query: 'limit=5',
        authorization: 'Bearer  phx_read',
        status: 200,
      }),
    ]);
  });

  it('is driven over its control endpoint by another process', async () => {
    const added = await control(upstream, 'POST', '/__control/faults', {
      path: LIST,
      action: { kind: 'status', status: 429, headers: { 'retry-after': '3' } },
      times: 1,
    });
    expect(added.status).toBe(201);
    const throttled = await rest(upstream, 'GET', LIST);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('3');
    const log = await control(upstream, 'GET', '/__control/requests');
    expect(log.body).toHaveLength(1);
    expect((await control(upstream, 'POST', '/__control/faults', { path: 1 })).status).toBe(400);
    await control(upstream, 'PUT', '/__control/rate-limit', { perMinute: 1 });
    await control(upstream, 'DELETE', '/__control/requests');
    expect(upstream.requests).toHaveLength(0);
    await rest(upstream, 'GET', LIST);
    expect((await rest(upstream, 'GET', LIST)).status).toBe(429);
  });
});
