// A Redis that stops answering without closing its connections (a paused server, a network black
// hole): ioredis still calls it ready until it has been silent for SILENT_REDIS_MS. A key's
// upstream budget, shared through it, asks it for a slice of permits about once a second: a call
// waits for its slice only until Redis is found lost (then it is counted in the process alone)
// or its request's deadline passes (RATE_LIMITED, unsent), never longer. It is not counted alone
// while Redis may still grant the same room to another process (budget-windows.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SILENT_REDIS_MS } from '../../../src/shared-state/silent-redis.ts';
import { SLICE_MS } from '../../../src/upstream/keys/slices.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { settle } from '../../support/wait.ts';

const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

describe('a shared upstream budget while Redis stalls', () => {
  let redis: RedisServer;
  let h: Harness;

  beforeAll(async () => {
    redis = await RedisServer.start();
    h = await startHarness({
      env: {
        REDIS_URL: redis.url,
        UPSTREAM_BUDGET_PER_MINUTE: '480',
        UPSTREAM_BUDGET_PER_HOUR: '4800',
        // Longer than Redis takes to be found lost.
        REQUEST_DEADLINE_MS: String(SILENT_REDIS_MS + 5_000),
      },
    });
  }, 30_000);
  afterAll(async () => {
    redis?.thaw();
    await h?.close();
    await redis?.stop();
  });

  it('answers once Redis is found lost, counted in the process alone, and again once Redis answers', async () => {
    // A first call takes a slice; once it lapses, the next call must ask Redis for another.
    expect((await h.gql(ONE_CONFIG, {}, 'phx_read')).body.data.project.destinationConfig.name).toBeTypeOf(
      'string',
    );
    await settle(SLICE_MS + 200);
    redis.freeze();
    try {
      // Bounded by the test, not by the gateway: without the bound the answer never came while
      // Redis stayed frozen.
      const answer = await Promise.race([
        h.gql(ONE_CONFIG, {}, 'phx_read'),
        settle(15_000).then(() => 'no answer within 15 s' as const),
      ]);
      expect(answer).not.toBe('no answer within 15 s');
      if (answer === 'no answer within 15 s') return;
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.project.destinationConfig.name).toBeTypeOf('string');
    } finally {
      redis.thaw();
    }
    expect((await h.gql(ONE_CONFIG, {}, 'phx_read')).body.data.project.destinationConfig.name).toBeTypeOf(
      'string',
    );
    expect(h.upstreamCalls()).toHaveLength(3);
  }, 30_000);
});
