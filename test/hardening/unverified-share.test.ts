// Keys the upstream has not accepted yet hold at most UNVERIFIED_MAX_IN_FLIGHT of the upstream
// client's UPSTREAM_MAX_IN_FLIGHT calls at once: however many invented keys wait on a slow
// upstream, a key it accepted finds room, and its call reaches the upstream while theirs are
// still held there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const PROJECT_1 = '{ project(projectId: "1") { name } }';
const PROJECT_2 = '{ project(projectId: "2") { name } }';
const INVENTED = 12;

describe('keys not yet accepted and the upstream pool', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_MAX_IN_FLIGHT: '4', UNVERIFIED_MAX_IN_FLIGHT: '2', REQUEST_DEADLINE_MS: '60000' },
    });
  });
  afterAll(() => h.close());

  it('cannot take the calls in flight from a key the upstream accepted', async () => {
    // The real key is accepted: one 2xx.
    expect((await h.gql(PROJECT_2, {}, 'phx_full')).body.errors).toBeUndefined();
    h.reset();
    // Project 1 answers after a minute: the invented keys' calls are held there.
    h.upstream.faults.add({ path: '/api/projects/1/', action: { kind: 'delay', ms: 60_000 } });
    const callers = Array.from({ length: INVENTED }, () => new AbortController());
    const held = callers.map((caller, i) =>
      fetch(h.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer phx_invented_${i}` },
        body: JSON.stringify({ query: PROJECT_1 }),
        signal: caller.signal,
      }).catch(() => undefined),
    );
    const invented = () => h.upstreamCalls().filter((c) => c.authorization !== 'Bearer phx_full');
    await until(() => invented().length >= 2, 'the invented keys to hold their share');

    const real = h.gql(PROJECT_2, {}, 'phx_full');
    await until(
      () => h.upstreamCalls().some((c) => c.authorization === 'Bearer phx_full'),
      'the real key’s call to reach the upstream',
    );
    expect((await real).body.data.project.name).toEqual(expect.any(String));
    // Still only their share of the pool reached the upstream: the rest wait in the gateway.
    expect(invented()).toHaveLength(2);

    for (const caller of callers) caller.abort();
    await Promise.all(held);
  });
});
