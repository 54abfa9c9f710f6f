// The fault matrix: each upstream failure, for a query and for a mutation. Expected: the right
// code, partial data where other fields succeeded, no waiting out a slow upstream, the process
// still serving, GETs retried as configured and writes sent exactly once.

import type { FaultAction } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startGatewayServer, startHarness } from '../../support/harness.ts';
import { settle } from '../../support/wait.ts';

const RETRIES = 2;

interface Case {
  name: string;
  action: FaultAction;
  code: string | null;
  /** Upstream attempts of the failing GET (retries included). */
  getAttempts: number;
  extensions?: Record<string, unknown>;
}

const CASES: Case[] = [
  { name: '500', action: { kind: 'status', status: 500 }, code: 'UPSTREAM_ERROR', getAttempts: 1 },
  { name: '502', action: { kind: 'status', status: 502 }, code: 'UPSTREAM_ERROR', getAttempts: 1 + RETRIES },
  { name: '503', action: { kind: 'status', status: 503 }, code: 'UPSTREAM_ERROR', getAttempts: 1 + RETRIES },
  { name: '504', action: { kind: 'status', status: 504 }, code: 'UPSTREAM_ERROR', getAttempts: 1 + RETRIES },
  {
    name: '429 without Retry-After',
    action: {
      kind: 'status',
      status: 429,
      body: { type: 'throttled_error', code: 'throttled', detail: 'Request was throttled.', attr: null },
    },
    code: 'RATE_LIMITED',
    getAttempts: 1,
    extensions: { retryAfter: null },
  },
  {
    name: '429 with a Retry-After past the deadline',
    action: { kind: 'status', status: 429, headers: { 'retry-after': '240' } },
    code: 'RATE_LIMITED',
    getAttempts: 1,
    extensions: { retryAfter: 240 },
  },
  {
    name: 'connection reset',
    action: { kind: 'reset' },
    code: 'UPSTREAM_UNAVAILABLE',
    getAttempts: 1 + RETRIES,
  },
  { name: 'malformed JSON', action: { kind: 'malformed' }, code: 'UPSTREAM_UNAVAILABLE', getAttempts: 1 },
  { name: 'slow headers', action: { kind: 'delay', ms: 5_000 }, code: 'UPSTREAM_TIMEOUT', getAttempts: 1 },
  { name: 'slow body', action: { kind: 'slow-body', ms: 5_000 }, code: 'UPSTREAM_TIMEOUT', getAttempts: 1 },
];

const QUERY = '{ project(projectId: "1") { name destinationConfigs(first: 2) { totalCount } } }';
const MUTATION = `mutation($a: UpdateDestinationConfigInput!, $b: UpdateDestinationConfigInput!) {
  a: updateDestinationConfig(input: $a) { destinationConfig { name } }
  b: updateDestinationConfig(input: $b) { destinationConfig { name } }
}`;

describe('fault matrix', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog',
      env: {
        UPSTREAM_HEADERS_TIMEOUT_MS: '300',
        UPSTREAM_BODY_TIMEOUT_MS: '300',
        REQUEST_DEADLINE_MS: '4000',
        UPSTREAM_RETRIES: String(RETRIES),
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  async function stillServing() {
    h.upstream.faults.clear();
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfig(databaseId: 1) { databaseId } } }',
    );
    expect(body).toEqual({ data: { project: { destinationConfig: { databaseId: 1 } } } });
  }

  describe.each(CASES)('$name', (c) => {
    it('in a query: the code on the failing field, the rest of the answer, GET retries as configured', async () => {
      h.upstream.faults.add({
        path: '/api/projects/1/pipeline_destination_configs/',
        method: 'GET',
        action: c.action,
      });
      const { status, body } = await h.gql(QUERY);
      expect(status).toBe(200);
      expect(body.data.project.name).toBe('Hedgebox (production)');
      expect(body.data.project.destinationConfigs).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].path).toEqual(['project', 'destinationConfigs']);
      expect(body.errors[0].extensions).toMatchObject({ code: c.code, ...c.extensions });
      const attempts = h.upstreamCalls({ path: '/api/projects/1/pipeline_destination_configs/' });
      expect(attempts).toHaveLength(c.getAttempts);
      if (c.name.startsWith('slow')) {
        // The gateway gave up on the slow answer instead of waiting it out.
        await settle(50);
        expect(attempts.every((a) => a.status === null)).toBe(true);
      }
      await stillServing();
    });

    it('in a mutation: the code, the other mutation’s result, and exactly one write per mutation', async () => {
      h.upstream.faults.add({ path: '/pipeline_destination_configs/1/', method: 'PATCH', action: c.action });
      const { body } = await h.gql(MUTATION, {
        a: { id: configId('1', 1), name: 'first' },
        b: { id: configId('1', 2), name: 'second' },
      });
      expect(body.data.a).toBeNull();
      expect(body.data.b).toEqual({ destinationConfig: { name: 'second' } });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ path: ['a'], extensions: { code: c.code } });
      const patches = h.upstreamCalls({ method: 'PATCH' });
      expect(patches.filter((p) => p.path.endsWith('/1/'))).toHaveLength(1);
      expect(patches.filter((p) => p.path.endsWith('/2/'))).toHaveLength(1);
      await stillServing();
    });

    it('in a create (POST) and a delete (DELETE): the code, and each write sent exactly once', async () => {
      h.upstream.faults.add({
        path: '/api/projects/1/pipeline_destination_configs/',
        method: 'POST',
        action: c.action,
      });
      h.upstream.faults.add({ path: '/pipeline_destination_configs/3/', method: 'DELETE', action: c.action });
      const { body } = await h.gql(
        `mutation($id: ID!) {
          create: createDestinationConfig(input: { projectId: "1", plugin: 1, order: 1 }) { destinationConfig { id } }
          remove: deleteDestinationConfig(input: { id: $id }) { deletedId }
        }`,
        { id: configId('1', 3) },
      );
      expect(body.data).toEqual({ create: null, remove: null });
      expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
        c.code,
        c.code,
      ]);
      expect(h.upstreamCalls({ method: 'POST' })).toHaveLength(1);
      expect(h.upstreamCalls({ method: 'DELETE' })).toHaveLength(1);
      await stillServing();
    });
  });

  it('waits out a 429 whose Retry-After fits the deadline, then answers', async () => {
    h.upstream.faults.add({
      path: '/api/projects/1/pipeline_destination_configs/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      times: 1,
    });
    const { body } = await h.gql(QUERY);
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinationConfigs.totalCount).toBe(150);
    expect(
      h.upstreamCalls({ path: '/api/projects/1/pipeline_destination_configs/' }).map((c) => c.status),
    ).toEqual([429, 200]);
  });

  it('recovers when a retried GET succeeds', async () => {
    h.upstream.faults.add({
      path: '/api/projects/1/pipeline_destination_configs/',
      action: { kind: 'reset' },
      times: 1,
    });
    h.upstream.faults.add({
      path: '/api/projects/1/pipeline_destination_configs/',
      action: { kind: 'status', status: 503 },
      times: 1,
    });
    const { body } = await h.gql(QUERY);
    expect(body.errors).toBeUndefined();
    expect(
      h.upstreamCalls({ path: '/api/projects/1/pipeline_destination_configs/' }).map((c) => c.status),
    ).toEqual([null, 503, 200]);
  });

  it('answers UPSTREAM_UNAVAILABLE when nothing listens upstream', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const gateway = await startGatewayServer(`http://127.0.0.1:${port}`, {
      UPSTREAM_RETRIES: '1',
      LOG_LEVEL: 'silent',
    });
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: '{ project(projectId: "1") { name } }' }),
    });
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    await gateway.close();
  });
});
