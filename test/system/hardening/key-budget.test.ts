// One process's upstream budget per key, as PostHog counts it: UPSTREAM_BUDGET_PER_MINUTE calls
// of one key in any 60 s reach the upstream, the rest are refused RATE_LIMITED before they are
// sent (or wait, when the room comes within the request's deadline); another key has its own
// budget; and a 429's Retry-After pauses the key, so the next call is not sent into it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

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

describe.each([
  'counted alone',
  'counted through Redis',
])('the upstream budget of a key, %s, counts only the calls sent', (mode) => {
  let h: Harness;
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (mode === 'counted through Redis') redis = await RedisServer.start();
    // One call in flight at a time, so that others wait in line for it.
    h = await startHarness({
      env: {
        UPSTREAM_BUDGET_PER_MINUTE: '3',
        UPSTREAM_BUDGET_PER_HOUR: '100',
        UPSTREAM_MAX_IN_FLIGHT: '1',
        REQUEST_DEADLINE_MS: '5000',
        ...(redis ? { REDIS_URL: redis.url } : {}),
      },
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });
  beforeEach(() => h.reset());

  it('gives back what a call counted when its client leaves while it waits in line', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/3/',
      action: { kind: 'delay', ms: 1_000 },
      times: 1,
    });
    const first = h.gql(ONE_CONFIG, {}, 'phx_read');
    await until(() => h.upstreamCalls().length === 1, 'the first call to reach the upstream');
    // Two more of the same key wait in line behind the first, and their clients leave.
    const left = await Promise.all(
      [1, 2].map(async () => {
        const controller = new AbortController();
        const answer = fetch(h.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer phx_read' },
          body: JSON.stringify({ query: ONE_CONFIG }),
          signal: controller.signal,
        }).catch((error: Error) => error.name);
        await settle(200);
        controller.abort();
        return answer;
      }),
    );
    expect(left).toEqual(['AbortError', 'AbortError']);
    expect((await first).body.data.project.destinationConfig.name).toBeTypeOf('string');
    // The budget holds the one call sent: two more go out.
    const after = await Promise.all([h.gql(ONE_CONFIG, {}, 'phx_read'), h.gql(ONE_CONFIG, {}, 'phx_read')]);
    expect(after.map((a) => a.body.errors?.[0]?.extensions.code ?? 'sent')).toEqual(['sent', 'sent']);
    expect(h.upstreamCalls()).toHaveLength(3);
  });
});
