// Nothing outlives its answer (issue 41, item 7): once a request is answered, the upstream work it
// still owns (here the retries of a read whose sibling already failed the field) is cancelled,
// over HTTP and over WebSocket: no upstream call starts after the answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle } from '../support/wait.ts';

const DESTINATIONS = '{ project(projectId: "1") { destinations(first: 5) { totalCount } } }';
/** Longer than the gateway's backoff before its second and third tries (100-200 ms, 200-300 ms). */
const QUIET_MS = 800;

describe('no upstream call after the answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.reset();
    // The batch exports fail at once (a 400 is not retried); the hog functions, read beside them,
    // answer 503, which is retried.
    h.upstream.faults.add({ path: '/batch_exports/', action: { kind: 'status', status: 400 } });
    h.upstream.faults.add({ path: '/hog_functions/', action: { kind: 'status', status: 503 } });
  });

  it('over HTTP', async () => {
    const { body } = await h.gql(DESTINATIONS);
    const answeredAt = Date.now();
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    await settle(QUIET_MS);
    const late = h.upstreamCalls().filter((c) => c.start > answeredAt);
    expect(late).toEqual([]);
    // It was a race the fix decides: the hog functions' read was still retrying when answered.
    expect(h.upstreamCalls({ path: '/api/projects/1/hog_functions/' }).length).toBeGreaterThanOrEqual(1);
  });

  it('over WebSocket', async () => {
    const op = subscribe(h, 'ws', 'phx_full', DESTINATIONS, {});
    const first = await op.next();
    const answeredAt = Date.now();
    expect(first.value.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    await settle(QUIET_MS);
    expect(h.upstreamCalls().filter((c) => c.start > answeredAt)).toEqual([]);
    op.dispose();
  });
});
