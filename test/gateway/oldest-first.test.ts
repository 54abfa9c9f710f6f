// When every upstream connection is busy, the next free one goes to the oldest operation's
// waiting call, not to whichever call was queued first (src/upstream/oldest-first.ts). Shown on
// one connection, in the order the reference upstream received the calls; and a call still
// waiting when its client goes away, or granted a connection after its deadline, is never sent.
import type { GraphQLError } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createUpstreamClient } from '../../src/gateway.ts';
import { RequestSignal } from '../../src/upstream/request-signal.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { parsePrometheus, total } from '../support/prometheus.ts';
import { until } from '../support/wait.ts';

const TOKEN = 'metrics-token-0123456789';
const CONFIGS_OF_1 = '/api/projects/1/pipeline_destination_configs/';

describe('upstream connections go to the oldest operation first', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { UPSTREAM_MAX_CONNECTIONS: '1', METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.reset();
    h.upstream.faults.clear();
  });

  /** Calls waiting for a connection, as /metrics reports them. */
  async function queued(): Promise<number> {
    const response = await fetch(h.url.replace('/graphql', '/metrics'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    return total(parsePrometheus(await response.text()), 'gateway_upstream_pool_queued_requests');
  }

  /** The next GET of project 1's configs is held 1.5 s upstream, keeping the one connection busy. */
  function holdConfigsOf1() {
    h.upstream.faults.add({
      path: CONFIGS_OF_1,
      method: 'GET',
      action: { kind: 'delay', ms: 1_500 },
      times: 1,
    });
  }

  it("serves an older operation's later call before a newer operation's earlier one", async () => {
    // This upstream has no advanced_activity_logs: the gateway learns so from its first item's
    // activity (loaders/activity/heads.ts), here, before the calls whose order is measured.
    await h.gql(
      '{ project(projectId: "1") { destinationConfig(databaseId: 1) { activity(first: 1) { edges { cursor } } } } }',
    );
    h.upstream.clearRequests();
    // Older: the configs of project 1 (held), project 2 waiting behind it, and the
    // activity of the first config, asked for only once the configs have come back.
    holdConfigsOf1();
    const older = h.gql(`{
      p1: project(projectId: "1") { destinationConfigs(first: 1) { edges { node {
        activity(first: 1) { edges { node { activity } } } } } } }
      p2: project(projectId: "2") { name }
    }`);
    await until(() => h.upstreamCalls({ path: CONFIGS_OF_1 }).length === 1, 'the configs call is upstream');
    // Newer: one call, queued behind project 2 while the configs are held.
    const newer = h.gql('{ project(projectId: "1") { name } }');
    await until(async () => (await queued()) === 2, 'both waiting calls are queued');

    const [olderAnswer, newerAnswer] = await Promise.all([older, newer]);
    expect(olderAnswer.body.errors).toBeUndefined();
    expect(newerAnswer.body.errors).toBeUndefined();
    // First come, first served would send the newer operation's call third, before the activity.
    expect(h.upstreamCalls().map((c) => c.path)).toEqual([
      CONFIGS_OF_1,
      '/api/projects/2/',
      '/api/projects/1/activity_log/',
      '/api/projects/1/',
    ]);
    expect(await queued()).toBe(0);
  });

  it('never sends a call whose client went away while it waited', async () => {
    holdConfigsOf1();
    const holding = h.gql(`{ project(projectId: "1") { destinationConfigs(first: 1) { totalCount } } }`);
    await until(() => h.upstreamCalls({ path: CONFIGS_OF_1 }).length === 1, 'the configs call is upstream');
    const leaving = new AbortController();
    const gone = fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: '{ project(projectId: "2") { name } }' }),
      signal: leaving.signal,
    }).catch((error: Error) => error.name);
    await until(async () => (await queued()) === 1, 'the second call is queued');
    leaving.abort();
    expect(await gone).toBe('AbortError');
    await until(async () => (await queued()) === 0, 'the abandoned call left the queue');

    expect((await holding).body.errors).toBeUndefined();
    // The connection is free again, and the abandoned call was never sent.
    const after = await h.gql('{ project(projectId: "2") { name } }');
    expect(after.body.errors).toBeUndefined();
    expect(h.upstreamCalls().map((c) => c.path)).toEqual([CONFIGS_OF_1, '/api/projects/2/']);
  });
});

describe('a call still waiting for a connection at its deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  // A GraphQL request's signal aborts at its deadline, which ends its wait (as a client going
  // away does, above). A caller whose signal does not (a subscription's poll) must not send a
  // call it was granted after its deadline.
  it('is not sent once a connection comes, and fails UPSTREAM_TIMEOUT', async () => {
    const client = createUpstreamClient(
      loadConfig({ UPSTREAM_URL: h.upstream.url, UPSTREAM_MAX_CONNECTIONS: '1' }),
      h.upstream.url,
    );
    const caller = (deadlineMs: number) =>
      client.forCaller({
        authorization: 'Bearer phx_full',
        signal: new RequestSignal(),
        deadline: Date.now() + deadlineMs,
      });
    h.upstream.faults.add({
      path: CONFIGS_OF_1,
      method: 'GET',
      action: { kind: 'delay', ms: 600 },
      times: 1,
    });
    const holding = caller(10_000).request({ method: 'GET', path: CONFIGS_OF_1 });
    await until(() => h.upstreamCalls({ path: CONFIGS_OF_1 }).length === 1, 'the configs call is upstream');
    const late = caller(100)
      .request({ method: 'GET', path: '/api/projects/2/' })
      .catch((error: GraphQLError) => error.extensions.code);

    expect(await late).toBe('UPSTREAM_TIMEOUT');
    expect((await holding).status).toBe(200);
    expect(h.upstreamCalls({ path: '/api/projects/2/' })).toEqual([]);
    await client.close();
  });
});
