// One process's upstream budget per key, as PostHog counts it: UPSTREAM_BUDGET_PER_MINUTE calls
// of one key in any 60 s reach the upstream, the rest are refused RATE_LIMITED before they are
// sent (or wait, when the room comes within the request's deadline); another key has its own
// budget; and a 429's Retry-After pauses the key, so the next call is not sent into it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';

const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

describe('the upstream budget of a key, in one process', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_BUDGET_PER_MINUTE: '10', UPSTREAM_BUDGET_PER_HOUR: '100', REQUEST_DEADLINE_MS: '2000' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('sends 10 calls of one key a minute and refuses the rest unsent; another key is apart', async () => {
    const answers = await Promise.all(Array.from({ length: 15 }, () => h.gql(ONE_CONFIG, {}, 'phx_read')));
    const refused = answers.filter((a) => a.body.errors?.[0]?.extensions.code === 'RATE_LIMITED');
    expect(h.upstreamCalls()).toHaveLength(10);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body.errors[0].extensions).toMatchObject({ budget: true });
    expect(refused[0]!.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
    // Another key's calls are counted apart.
    expect((await h.gql(ONE_CONFIG, {}, 'phx_full')).body.data.project.destinationConfig.name).toBeTypeOf(
      'string',
    );
    expect(h.upstreamCalls()).toHaveLength(11);
  });

  it('after a 429 with Retry-After, sends nothing of that key until it has passed', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/3/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '5' } },
      times: 1,
    });
    const limited = await h.gql(ONE_CONFIG, {}, 'phx_plugin_rw');
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    const paused = await h.gql(ONE_CONFIG, {}, 'phx_plugin_rw');
    expect(paused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', budget: true });
    expect(h.upstreamCalls()).toHaveLength(1);
  });
});
