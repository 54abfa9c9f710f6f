// Subscription.destinationHealthChanged over both transports: a hog function the hog watcher
// degrades, and a batch export whose newest run fails, arrive as changes (old and new health);
// another key's subscription to its own project gets nothing of them; a key without access to the
// project, an invented key, a project that is not there and a refusal of every kind asked end the
// stream with a coded error; subscribers of one key share one poller, whose reads are counted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const HEALTH = `subscription($projectId: ID!, $kinds: [DestinationKind!]) {
  destinationHealthChanged(projectId: $projectId, kinds: $kinds) {
    id kind old { state reason } new { state reason since }
    destination { __typename name ... on HogFunction { uuid } ... on BatchExport { uuid } }
  }
}`;
const S3 = '018f0a5e-0020-7000-8000-000000000001';
const toGlobal = (typename: string, id: string) => Buffer.from(`${typename}:1:${id}`).toString('base64');

/** The upstream's answered reads of hog functions with `key`: one per health poll. */
const polls = (h: Harness, key: string) =>
  h
    .upstreamCalls()
    .filter(
      (c) => c.path.endsWith('/hog_functions/') && c.authorization === `Bearer ${key}` && c.status !== null,
    );
const polled = (h: Harness, key: string, count = 1) =>
  until(() => polls(h, key).length >= count, `${count} health polls with ${key}`);

describe.each<Transport>(['sse', 'ws'])('destinationHealthChanged over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: { DESTINATION_HEALTH_POLL_MS: '200' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const control = async (path: string, json: unknown) => {
    const answer = await fetch(new URL(path, h.upstream.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    expect(answer.ok).toBe(true);
  };

  it('delivers a function that degrades and a run that fails, and nothing to another key', async () => {
    await control('/__control/batch-export-run', { batchExportId: S3, status: 'Completed' });
    const fn = [...h.upstream.store.hogFunctions.values()].find(
      (f) => f.projectId === 1 && f.enabled && !f.deleted && f.type === 'destination',
    )!;
    const mine = subscribe(h, transport, 'phx_full', HEALTH, { projectId: '1' });
    const theirs = subscribe(h, transport, 'phx_other', HEALTH, { projectId: '3' });
    const first = mine.next();
    const theirsFirst = theirs.next();
    await polled(h, 'phx_full');
    await polled(h, 'phx_other');

    await control('/__control/hog-function-status', { id: fn.id, state: 2 });
    const degraded = await first;
    expect(degraded.value.errors).toBeUndefined();
    expect(degraded.value.data.destinationHealthChanged).toEqual({
      id: toGlobal('HogFunction', fn.id),
      kind: 'HOG_FUNCTION',
      old: { state: 'HEALTHY', reason: 'PostHog runs the function normally.' },
      new: { state: 'DEGRADED', reason: expect.stringMatching(/hog watcher degraded/), since: null },
      destination: { __typename: 'HogFunction', name: fn.name, uuid: fn.id },
    });

    await control('/__control/batch-export-run', {
      batchExportId: S3,
      status: 'Failed',
      latestError: 'NoSuchBucket',
    });
    const failed = await mine.next();
    expect(failed.value.errors).toBeUndefined();
    expect(failed.value.data.destinationHealthChanged).toMatchObject({
      id: toGlobal('BatchExport', S3),
      kind: 'BATCH_EXPORT',
      old: { state: 'HEALTHY' },
      new: { state: 'FAILING', reason: 'Its latest run Failed: NoSuchBucket' },
      destination: { __typename: 'BatchExport', uuid: S3 },
    });
    expect(failed.value.data.destinationHealthChanged.new.since).not.toBeNull();

    // The other key polled its own project all along, and was handed nothing.
    await polled(h, 'phx_other', polls(h, 'phx_other').length + 1);
    const race = await Promise.race([theirsFirst.then(() => 'event'), settle(100).then(() => 'nothing')]);
    expect(race).toBe('nothing');
    expect(polls(h, 'phx_other').every((c) => c.path.startsWith('/api/projects/3/'))).toBe(true);
    await mine.return();
    await theirs.return();
    mine.dispose();
    theirs.dispose();
  });

  it('ends with a coded error for a key without access to the project, before any change', async () => {
    const s = subscribe(h, transport, 'phx_other', HEALTH, { projectId: '1' });
    const event = await s.next();
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(event.value.errors?.[0]?.extensions?.code);
    expect(event.value.data?.destinationHealthChanged ?? null).toBeNull();
    expect((await s.next()).done).toBe(true);
    s.dispose();
    await until(() => h.live.health.pollerCount === 0, 'the poller stopped');
  });

  it.each([
    ['UNAUTHENTICATED', 'phx_invented_9', '1'],
    ['NOT_FOUND', 'phx_full', '999'],
  ])('ends with %s (key %s, project %s), and polls no more', async (code, key, projectId) => {
    const s = subscribe(h, transport, key, HEALTH, { projectId });
    const event = await s.next();
    expect(event.value.errors?.[0]?.extensions?.code).toBe(code);
    expect((await s.next()).done).toBe(true);
    s.dispose();
    await until(() => h.live.health.pollerCount === 0, 'the poller stopped');
    const asked = h.upstreamCalls().length;
    await settle(600);
    expect(h.upstreamCalls()).toHaveLength(asked);
  });

  it('ends with FORBIDDEN when the upstream refuses every kind asked, after the baseline', async () => {
    const s = subscribe(h, transport, 'phx_full', HEALTH, { projectId: '1', kinds: ['HOG_FUNCTION'] });
    const event = s.next();
    await polled(h, 'phx_full');
    h.upstream.faults.add({
      path: '/hog_functions/',
      method: 'GET',
      action: {
        kind: 'status',
        status: 403,
        body: {
          type: 'authentication_error',
          code: 'permission_denied',
          detail: 'You do not have permission to perform this action.',
          attr: null,
        },
      },
    });
    const ended = await event;
    expect(ended.value.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await s.next()).done).toBe(true);
    s.dispose();
    await until(() => h.live.health.pollerCount === 0, 'the poller stopped');
  });
});

describe('destinationHealthChanged polling', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: { DESTINATION_HEALTH_POLL_MS: '60000' } });
  });
  afterAll(() => h.close());

  it('shares one poller between two subscriptions of a key; its poll reads the kinds asked once', async () => {
    h.reset();
    const vars = { projectId: '1', kinds: ['BATCH_EXPORT'] };
    const a = subscribe(h, 'sse', 'phx_full', HEALTH, vars);
    const b = subscribe(h, 'ws', 'phx_full', HEALTH, vars);
    // Pending until the streams end; a WebSocket's ends as the socket closes.
    a.next().catch(() => undefined);
    b.next().catch(() => undefined);
    await until(() => h.upstreamCalls().some((c) => c.path.endsWith('/batch_exports/')), 'the baseline poll');
    await settle(200);
    expect(h.live.health.pollerCount).toBe(1);
    // One poll: one page of batch exports, nothing else (besides the key's check: live/key-check.ts).
    const calls = h.upstreamCalls().map((c) => `${c.method} ${c.path}`);
    expect(calls.filter((c) => c !== 'GET /api/projects/@current/')).toEqual([
      'GET /api/projects/1/batch_exports/',
    ]);
    await a.return();
    await b.return();
    a.dispose();
    b.dispose();
    await until(() => h.live.health.pollerCount === 0, 'the poller stopped');
  });
});
