// GET answers kept per key (UPSTREAM_CACHE_TTL_MS, upstream/kept/answers.ts), counted in the
// reference upstream's request log: a repeated read spends no call; two keys of one project never
// share an entry; a write through the gateway and a change PostHog logs drop what is kept; a 429
// is answered by a kept answer within UPSTREAM_CACHE_STALE_MS, marked in `extensions.stale`, and
// not past it.

import type { RequestLogEntry } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/core/caller-key.ts';
import { subscribe } from '../support/clients.ts';
import { configId, type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';
import { settle, until } from '../support/wait.ts';

// Each test reads its own config: what one test kept is not another's.
const READ = '{ project(projectId: "1") { destinationConfig(databaseId: 5) { name } } }';
const configPath = (id: number) => `/api/projects/1/pipeline_destination_configs/${id}/`;
const readOf = (id: number) =>
  `{ project(projectId: "1") { destinationConfig(databaseId: ${id}) { name } } }`;
const reads = (h: Harness, id = 5): RequestLogEntry[] =>
  h.upstreamCalls({ method: 'GET', path: configPath(id) });
const nameOf = (body: { data: { project: { destinationConfig: { name: string } } } }) =>
  body.data.project.destinationConfig.name;

const UPDATE =
  'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Written"}) { destinationConfig { name } } }';

const THROTTLED = {
  path: 'pipeline_destination_configs',
  action: {
    kind: 'status' as const,
    status: 429,
    headers: { 'retry-after': '120' },
    body: { type: 'throttled_error', code: 'throttled', detail: 'Request was throttled.', attr: null },
  },
};

describe('answers kept per key', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog',
      env: { UPSTREAM_CACHE_TTL_MS: '600000', ACTIVITY_POLL_MS: '100' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('answers a read repeated within the TTL without a second call', async () => {
    const first = await h.gql(READ);
    const second = await h.gql(READ);
    expect(first.body.errors).toBeUndefined();
    expect(second.body).toEqual(first.body);
    expect(reads(h)).toHaveLength(1);
  });

  it('makes identical reads in flight at once once', async () => {
    const held = holdRequests(h.upstream, (url) => url.startsWith(configPath(6)));
    try {
      const a = h.gql(readOf(6));
      await until(() => held.held() === 1, 'the first read held');
      const b = h.gql(readOf(6));
      await settle(100);
      expect(held.held()).toBe(1);
      held.release();
      const [first, second] = await Promise.all([a, b]);
      expect(first.body.errors).toBeUndefined();
      expect(second.body).toEqual(first.body);
      expect(reads(h, 6)).toHaveLength(1);
    } finally {
      held.release();
    }
  });

  it('never answers one key with what another key read, in one project', async () => {
    expect((await h.gql(readOf(7), {}, 'phx_full')).body.errors).toBeUndefined();
    expect((await h.gql(readOf(7), {}, 'phx_read')).body.errors).toBeUndefined();
    // A key without plugin:read is refused by PostHog, not answered from the other keys' entries.
    const refused = await h.gql(readOf(7), {}, 'phx_batch_read');
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(reads(h, 7).map((call) => call.authorization)).toEqual([
      'Bearer phx_full',
      'Bearer phx_read',
      'Bearer phx_batch_read',
    ]);
    // Each key's own entry answers it again.
    await h.gql(readOf(7), {}, 'phx_full');
    await h.gql(readOf(7), {}, 'phx_read');
    expect(reads(h, 7)).toHaveLength(3);
  });

  it('drops what is kept of a project when the key writes to it', async () => {
    await h.gql(readOf(8));
    const written = await h.gql(
      'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Written"}) { destinationConfig { name } } }',
      { id: configId('1', 8) },
    );
    expect(written.body.errors).toBeUndefined();
    const before = reads(h, 8).length;
    const after = await h.gql(readOf(8));
    expect(nameOf(after.body)).toBe('Written');
    expect(reads(h, 8)).toHaveLength(before + 1);
  });

  it('drops what is kept of a project when its activity log shows a change made in PostHog', async () => {
    const feed = subscribe(
      h,
      'sse',
      'phx_full',
      'subscription { activityAdded(projectId: "1") { id itemId } }',
    );
    const event = feed.next();
    await until(
      () => h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).some((c) => c.status !== null),
      'the baseline poll answered',
    );
    await h.gql(readOf(9));
    await h.gql(readOf(9));
    expect(reads(h, 9)).toHaveLength(1);
    // Straight to the upstream, as PostHog's UI would: the gateway is not told.
    const patched = await fetch(`${h.upstream.url}${configPath(9)}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer phx_full', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Changed in PostHog' }),
    });
    expect(patched.status).toBe(200);
    expect((await event).value.data.activityAdded.itemId).toBe('9');
    const after = await h.gql(readOf(9));
    expect(nameOf(after.body)).toBe('Changed in PostHog');
    expect(reads(h, 9).filter((call) => call.authorization === 'Bearer phx_full')).toHaveLength(2);
    await feed.return();
    feed.dispose();
  });

  it('drops nothing for a write PostHog refuses, such as one with an invented key', async () => {
    await h.gql(readOf(10), {}, 'phx_full');
    const refused = await h.gql(UPDATE, { id: configId('1', 10) }, 'phx_invented');
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    await h.gql(readOf(10), {}, 'phx_full');
    expect(reads(h, 10).filter((call) => call.authorization === 'Bearer phx_full')).toHaveLength(1);
  });

  it('answers a key PostHog has since refused with none of its kept answers', async () => {
    const key = hashKey('Bearer phx_read');
    try {
      expect((await h.gql(readOf(11), {}, 'phx_read')).body.errors).toBeUndefined();
      h.upstream.faults.add({ path: configPath(12), action: { kind: 'status', status: 401 }, times: 1 });
      const refusal = await h.gql(readOf(12), {}, 'phx_read');
      expect(refusal.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      const after = await h.gql(readOf(11), {}, 'phx_read');
      expect(after.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(reads(h, 11)).toHaveLength(1);
    } finally {
      h.upstream.faults.clear();
      h.live.keyStanding.noteAccepted(key);
    }
  });
});

describe('a kept answer while PostHog refuses', () => {
  let h: Harness;
  let bounded: Harness;
  beforeAll(async () => {
    // Kept past a millisecond, an answer is read again: the upstream is asked each time.
    h = await startHarness({
      dialect: 'posthog',
      env: { UPSTREAM_CACHE_TTL_MS: '1', UPSTREAM_CACHE_STALE_MS: '600000' },
    });
    bounded = await startHarness({
      dialect: 'posthog',
      env: { UPSTREAM_CACHE_TTL_MS: '1', UPSTREAM_CACHE_STALE_MS: '5' },
    });
  });
  afterAll(async () => {
    await h.close();
    await bounded.close();
  });

  it('answers with the kept answer during a 429, marked stale with its age', async () => {
    const kept = await h.gql(READ);
    expect(kept.body.extensions?.stale).toBeUndefined();
    await settle(5);
    h.upstream.faults.add(THROTTLED);
    const { body } = await h.gql(READ);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual(kept.body.data);
    expect(body.extensions.stale).toEqual([
      { route: '/api/projects/:project_id/pipeline_destination_configs/:id/', age: expect.any(Number) },
    ]);
    expect(reads(h).map((call) => call.status)).toEqual([200, 429]);
  });

  it('answers RATE_LIMITED when the kept answer is older than the bound', async () => {
    expect((await bounded.gql(READ)).body.errors).toBeUndefined();
    await settle(20);
    bounded.upstream.faults.add(THROTTLED);
    const { body } = await bounded.gql(READ);
    expect(body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(body.extensions?.stale).toBeUndefined();
    expect(reads(bounded).map((call) => call.status)).toEqual([200, 429]);
  });
});
