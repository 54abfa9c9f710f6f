// Live work ends when nothing can come, on SSE and graphql-ws alike: an activityAdded
// subscription or a @live query whose answer says the key, the project or the plan cannot serve
// it (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND of the project, PAYMENT_REQUIRED, UPSTREAM_UNSUPPORTED)
// sends that answer once, completes, gives its slot back and asks the upstream no more. A 5xx
// keeps it: the stream reports it and goes on.

import type { Dialect, FaultAction } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../../support/clients.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { settle, until } from '../../support/wait.ts';

const ACTIVITY = 'subscription($projectId: String!) { activityAdded(projectId: $projectId) { id activity } }';
const RESUMED =
  'subscription($projectId: String!, $after: String) { activityAdded(projectId: $projectId, after: $after) { id } }';
const LIVE_LOG =
  'query($projectId: String!) @live { project(projectId: $projectId) { activityLog(first: 1) { edges { node { id } } } } }';
const LIVE_NAME = 'query($projectId: String!) @live { project(projectId: $projectId) { id name } }';
const REMOVED: FaultAction = {
  kind: 'status',
  status: 404,
  body: { type: 'invalid_request', detail: 'Endpoint not found.' },
};

interface EndingCase {
  code: string;
  dialect: Dialect;
  key: string;
  projectId: string;
  /** The @live query that meets it (a project's name, or its activity log). */
  live: string;
  /** A fault the upstream answers the activity log with. */
  fault?: FaultAction;
}

const CASES: EndingCase[] = [
  { code: 'UNAUTHENTICATED', dialect: 'spec', key: 'phx_invented_9', projectId: '1', live: LIVE_LOG },
  // A key without activity_log:read.
  { code: 'FORBIDDEN', dialect: 'spec', key: 'phx_plugin_rw', projectId: '1', live: LIVE_LOG },
  { code: 'NOT_FOUND', dialect: 'spec', key: 'phx_full', projectId: '999', live: LIVE_NAME },
  // Other Co.'s plan has no audit logs: today's PostHog answers 402 on its activity log.
  { code: 'PAYMENT_REQUIRED', dialect: 'posthog-2026', key: 'phx_other', projectId: '3', live: LIVE_LOG },
  // Django's own 404: PostHog no longer serves the route.
  {
    code: 'UPSTREAM_UNSUPPORTED',
    dialect: 'spec',
    key: 'phx_full',
    projectId: '1',
    live: LIVE_LOG,
    fault: REMOVED,
  },
];

describe.each<Transport>(['sse', 'ws'])('live work that can never deliver ends, over %s', (transport) => {
  const harnesses = new Map<Dialect, Harness>();
  beforeAll(async () => {
    // Both poll every 100 ms: a stream that went on would ask again within the 500 ms watched.
    const env = { ACTIVITY_POLL_MS: '100', LIVE_QUERY_POLL_MS: '100' };
    harnesses.set('spec', await startHarness({ env }));
    harnesses.set('posthog-2026', await startHarness({ dialect: 'posthog-2026', env }));
  });
  afterAll(async () => {
    for (const h of harnesses.values()) await h.close();
  });
  beforeEach(() => {
    for (const h of harnesses.values()) h.reset();
  });

  /** The stream ends after exactly one event, with `code`; its slot is free and polling has stopped. */
  async function endsOnce(h: Harness, s: ReturnType<typeof subscribe>, code: string) {
    const first = await s.next();
    expect(first.done).toBe(false);
    expect(first.value.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toContain(
      code,
    );
    expect((await s.next()).done).toBe(true);
    s.dispose();
    await until(() => h.live.slots.open === 0 && h.live.activity.pollerCount === 0);
    expect(h.live.slots.open).toBe(0);
    expect(h.live.activity.pollerCount).toBe(0);
    const calls = h.upstreamCalls().length;
    expect(calls).toBeGreaterThan(0);
    await settle(500);
    expect(h.upstreamCalls()).toHaveLength(calls);
  }

  for (const c of CASES) {
    it(`activityAdded ends on ${c.code} (${c.dialect})`, async () => {
      const h = harnesses.get(c.dialect)!;
      if (c.fault) h.upstream.faults.add({ path: '/activity_log/', action: c.fault });
      await endsOnce(h, subscribe(h, transport, c.key, ACTIVITY, { projectId: c.projectId }), c.code);
    });

    it(`a @live query ends on ${c.code} (${c.dialect})`, async () => {
      const h = harnesses.get(c.dialect)!;
      if (c.fault) h.upstream.faults.add({ path: '/activity_log/', action: c.fault });
      // An invented key of its own: one refused moments ago is refused again with no call at all.
      const key = c.key.startsWith('phx_invented') ? `${c.key}_live` : c.key;
      await endsOnce(h, subscribe(h, transport, key, c.live, { projectId: c.projectId }), c.code);
    });
  }

  it('activityAdded outlives a 5xx: it reports it, keeps its slot, and delivers once the upstream is back', async () => {
    const h = harnesses.get('spec')!;
    h.upstream.faults.add({ path: '/activity_log/', action: { kind: 'status', status: 500 } });
    const s = subscribe(h, transport, 'phx_full', ACTIVITY, { projectId: '1' });
    const failed = await s.next();
    expect(failed.value.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
    expect(h.live.slots.open).toBe(1);
    h.upstream.faults.clear();
    // Polling backs off (200 ms, 400 ms …) and goes on: a write is then delivered.
    await h.gql(
      'mutation($input: CreateDestinationConfigInput!) { createDestinationConfig(input: $input) { destinationConfig { databaseId } } }',
      { input: { projectId: '1', plugin: 1, order: 60, name: `After 5xx ${transport}` } },
    );
    let entry: { activity: string } | null = null;
    for (let i = 0; i < 10 && entry === null; i++) {
      const step = await s.next();
      if (step.done) break;
      if (step.value.data?.activityAdded?.activity === 'created') entry = step.value.data.activityAdded;
    }
    expect(entry).not.toBeNull();
    expect(h.live.slots.open).toBe(1);
    await s.return();
    s.dispose();
    await until(() => h.live.slots.open === 0);
    expect(h.live.slots.open).toBe(0);
  });

  it('a @live query outlives a 5xx: it re-runs, and sends the answer once the upstream is back', async () => {
    const h = harnesses.get('spec')!;
    h.upstream.faults.add({ path: '/activity_log/', action: { kind: 'status', status: 503 } });
    const s = subscribe(h, transport, 'phx_full', LIVE_LOG, { projectId: '1' });
    const failed = await s.next();
    expect(failed.value.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
    const calls = h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).length;
    await until(() => h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).length > calls);
    expect(h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).length).toBeGreaterThan(calls);
    expect(h.live.slots.open).toBe(1);
    h.upstream.faults.clear();
    const back = await s.next();
    expect(back.value.errors).toBeUndefined();
    expect(back.value.data.project.activityLog.edges).toHaveLength(1);
    await s.return();
    s.dispose();
    await until(() => h.live.slots.open === 0);
    expect(h.live.slots.open).toBe(0);
  });

  it('a resumed activityAdded ends on PAYMENT_REQUIRED from its catch-up, before any poller', async () => {
    const h = harnesses.get('posthog-2026')!;
    const after = h.upstream.store.activity.find((e) => e.projectId === 3)!.id;
    const s = subscribe(h, transport, 'phx_other', RESUMED, { projectId: '3', after });
    await endsOnce(h, s, 'PAYMENT_REQUIRED');
    expect(h.upstreamCalls().filter((c) => c.query.includes('follow=true'))).toHaveLength(0);
  });

  it('a resumed activityAdded outlives a 5xx in its catch-up: it reports it, reads again, and delivers', async () => {
    const h = harnesses.get('spec')!;
    const [newest, previous] = h.upstream.store.activity.filter((e) => e.projectId === 1).reverse();
    h.upstream.faults.add({ path: '/activity_log/', action: { kind: 'status', status: 500 } });
    const s = subscribe(h, transport, 'phx_full', RESUMED, { projectId: '1', after: previous!.id });
    const failed = await s.next();
    expect(failed.value.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
    h.upstream.faults.clear();
    // The catch-up is read again after the poller's backoff (200 ms here).
    let caughtUp: { id: string } | null = null;
    for (let i = 0; i < 10 && caughtUp === null; i++) {
      const step = await s.next();
      if (step.done) break;
      caughtUp = step.value.data?.activityAdded ?? null;
    }
    expect(caughtUp?.id).toBe(newest!.id);
    expect(h.live.slots.open).toBe(1);
    await s.return();
    s.dispose();
    await until(() => h.live.slots.open === 0);
    expect(h.live.slots.open).toBe(0);
  });

  it('a @live query that still answers something goes on: a 402 on the log beside the project’s name', async () => {
    const h = harnesses.get('posthog-2026')!;
    const query =
      'query @live { project(projectId: "3") { name activityLog(first: 1) { edges { node { id } } } } }';
    const s = subscribe(h, transport, 'phx_other', query);
    const first = await s.next();
    expect(first.value.errors[0].extensions.code).toBe('PAYMENT_REQUIRED');
    expect(first.value.data.project.name).toBe('Other Co. web');
    const calls = h.upstreamCalls().length;
    await until(() => h.upstreamCalls().length > calls);
    expect(h.upstreamCalls().length).toBeGreaterThan(calls);
    expect(h.live.slots.open).toBe(1);
    await s.return();
    s.dispose();
    await until(() => h.live.slots.open === 0);
    expect(h.live.slots.open).toBe(0);
  });
});
