// A Redis that answers, but slowly (loaded, or far away), short of being lost (SILENT_REDIS_MS
// unanswered): every request that asks it waits on it, so it shows before it is lost. /health says
// `redis: { status: 'slow', latencyMs }` once its answers take REDIS_SLOW_MS or more, and
// gateway_redis_slow is 1; the process still shares (nothing is degraded), and once Redis answers
// quickly again both say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { SlowRedisProxy } from '../../support/slow-redis-proxy.ts';
import { settle } from '../../support/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: /health's body is inspected field by field.
type Health = any;

describe('a slow Redis', () => {
  let redis: RedisServer;
  let proxy: SlowRedisProxy;
  let h: Harness;
  const origin = () => h.url.replace('/graphql', '');
  const health = async () => (await (await fetch(`${origin()}/health`)).json()) as Health;
  const metric = async (name: string) => {
    const text = await (await fetch(`${origin()}/metrics`)).text();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  };
  /** /health until `done` holds of it, at most 200 times 100 ms apart. */
  const healthUntil = async (done: (said: Health) => boolean) => {
    let said: Health;
    for (let i = 0; i < 200; i++) {
      said = await health();
      if (done(said)) break;
      await settle(100);
    }
    return said;
  };

  beforeAll(async () => {
    redis = await RedisServer.start();
    proxy = await SlowRedisProxy.start(redis.port);
    h = await startHarness({ env: { REDIS_URL: proxy.url, REDIS_SLOW_MS: '250' } });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    await redis?.stop();
  });

  it('says so on /health and in gateway_redis_slow, with its latency, and no longer once it is quick', async () => {
    expect(await healthUntil((said) => said.status === 'ok')).toEqual({ status: 'ok', degraded: [] });
    expect(await metric('gateway_redis_slow')).toBe(0);
    proxy.delayMs = 800;
    const slow = await healthUntil((said) => said.redis?.status === 'slow');
    expect(slow).toMatchObject({ status: 'degraded', degraded: [], redis: { status: 'slow' } });
    expect(slow.redis.latencyMs).toBeGreaterThanOrEqual(250);
    expect(await metric('gateway_redis_slow')).toBe(1);
    expect(await metric('gateway_redis_latency_seconds')).toBeGreaterThanOrEqual(0.25);
    expect(await metric('gateway_redis_up')).toBe(1);
    proxy.delayMs = 0;
    expect(await healthUntil((said) => said.status === 'ok')).toEqual({ status: 'ok', degraded: [] });
    expect(await metric('gateway_redis_slow')).toBe(0);
  }, 40_000);
});
