// A route PostHog marks as going (Deprecation, Sunset: the emulator's /__control/answer-headers)
// is still warned of with UPSTREAM_CACHE_TTL_MS on: every operation that touched the route has
// the warning in `extensions.warnings`, whether its answer came from the upstream, from what is
// kept (upstream/kept/answers.ts), from a read in flight it joined, or stale during a 429.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';
import { settle, until } from '../support/wait.ts';

const ROUTE = '/api/projects/:project_id/pipeline_destination_configs/:id/';
const configPath = (id: number) => `/api/projects/1/pipeline_destination_configs/${id}/`;
const readOf = (id: number) =>
  `{ project(projectId: "1") { destinationConfig(databaseId: ${id}) { name } } }`;
const GOING = { deprecation: '@1735689600', sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' };
const WARNING = {
  code: 'UPSTREAM_DEPRECATED',
  message: expect.stringContaining(ROUTE),
  route: ROUTE,
  deprecation: '2025-01-01T00:00:00.000Z',
  sunset: '2025-12-31T23:59:59.000Z',
  link: null,
};

describe('deprecation warnings of kept answers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_CACHE_TTL_MS: '600000', UPSTREAM_CACHE_STALE_MS: '600000' },
    });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    h.reset();
    // Through the control, as an operator's test would: the config route is going.
    const armed = await fetch(`${h.upstream.url}/__control/answer-headers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/pipeline_destination_configs/\\d+/$/', method: 'GET', headers: GOING }),
    });
    expect(armed.status).toBe(201);
  });

  const reads = (id: number) => h.upstreamCalls({ method: 'GET', path: configPath(id) });

  it('warns each operation answered from what is kept, as the one that read it', async () => {
    const first = await h.gql(readOf(2));
    expect(first.body.errors).toBeUndefined();
    expect(first.body.extensions.warnings).toEqual([WARNING]);
    for (let i = 0; i < 3; i++) {
      const again = await h.gql(readOf(2));
      expect(again.body.data).toEqual(first.body.data);
      expect(again.body.extensions.warnings).toEqual([WARNING]);
    }
    // One upstream read answered all four.
    expect(reads(2)).toHaveLength(1);
    // An operation of another route, kept or not, is told nothing.
    const other = await h.gql('{ project(projectId: "1") { name } }');
    expect(other.body.errors).toBeUndefined();
    expect(other.body.extensions?.warnings).toBeUndefined();
  });

  it('warns each operation that joined a read in flight', async () => {
    const held = holdRequests(h.upstream, (url) => url.startsWith(configPath(3)));
    try {
      const a = h.gql(readOf(3));
      await until(() => held.held() === 1, 'the first read held');
      const b = h.gql(readOf(3));
      await settle(100);
      expect(held.held()).toBe(1);
      held.release();
      const [first, second] = await Promise.all([a, b]);
      expect(first.body.extensions.warnings).toEqual([WARNING]);
      expect(second.body.extensions.warnings).toEqual([WARNING]);
      expect(reads(3)).toHaveLength(1);
    } finally {
      held.release();
    }
  });
});

describe('deprecation warnings of a stale answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { UPSTREAM_CACHE_TTL_MS: '1', UPSTREAM_CACHE_STALE_MS: '600000' } });
  });
  afterAll(() => h.close());

  it('warns an operation answered by a kept answer during a 429 the route no longer marks', async () => {
    h.upstream.faults.headers.add({
      path: '/pipeline_destination_configs/\\d+/$/',
      method: 'GET',
      headers: GOING,
    });
    const first = await h.gql(readOf(4));
    expect(first.body.extensions.warnings).toEqual([WARNING]);
    await settle(5);
    // The 429 itself says nothing of the route's end: the warning is the kept answer's.
    h.upstream.faults.headers.clear();
    h.upstream.faults.add({
      path: 'pipeline_destination_configs/4/',
      action: {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '120' },
        body: { type: 'throttled_error', code: 'throttled', detail: 'Request was throttled.', attr: null },
      },
    });
    const stale = await h.gql(readOf(4));
    expect(stale.body.errors).toBeUndefined();
    expect(stale.body.data).toEqual(first.body.data);
    expect(stale.body.extensions.stale).toEqual([{ route: ROUTE, age: expect.any(Number) }]);
    expect(stale.body.extensions.warnings).toEqual([WARNING]);
    const statuses = h.upstreamCalls({ method: 'GET', path: configPath(4) }).map((call) => call.status);
    expect(statuses).toEqual([200, 429]);
  });
});
