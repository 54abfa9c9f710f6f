// 10,000 invented keys beside one real key, with a Redis: every per-key map keeps its bound, and
// the real key keeps what it holds. The real key holds a subscription's slot (its only one:
// MAX_SUBSCRIPTIONS_PER_KEY=1) and is paused by a 429 with Retry-After: 240 from the reference
// upstream; then 10,000 queries and 300 subscriptions come with keys nobody issued (each a 401
// upstream, UNAUTHENTICATED). After them the real key is still paused (RATE_LIMITED with no
// upstream call), its slot still held (here and in Redis: a second subscription is refused), the
// budget counts at most MAX_KEYS keys in the process and MAX_COUNTED_KEYS in Redis, Redis holds
// at most MAX_REFUSED_KEYS of their refusals, and the invented keys hold no slot.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/core/caller-key.ts';
import { BUDGET_KEYS, MAX_COUNTED_KEYS } from '../../../src/shared-state/shared-budget.ts';
import { MAX_REFUSED_KEYS, REFUSED_KEYS } from '../../../src/shared-state/shared-standing.ts';
import type { KeyBudget } from '../../../src/upstream/keys/budget.ts';
import { MAX_KEYS } from '../../../src/upstream/keys/key-states.ts';
import { subscribe } from '../../support/clients.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { inBatches } from '../../support/in-batches.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const REAL = 'phx_full';
const INVENTED = 10_000;
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';
const ACTIVITY = 'subscription { activityAdded(projectId: "1") { activity itemId } }';

describe('10,000 invented keys beside one real key that is paused and holds a slot', () => {
  let redis: RedisServer;
  let client: Redis;
  let h: Harness;

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    h = await startHarness({
      env: {
        REDIS_URL: redis.url,
        // PostHog's budget, on (the harness turns it off): pauses are the budget's.
        UPSTREAM_BUDGET_PER_MINUTE: '480',
        UPSTREAM_BUDGET_PER_HOUR: '4800',
        MAX_SUBSCRIPTIONS_PER_KEY: '1',
        // The real key's subscription polls once (its baseline), then not during the flood.
        ACTIVITY_POLL_MS: '3600000',
      },
    });
  }, 30_000);
  afterAll(async () => {
    client?.disconnect();
    await h?.close();
    await redis?.stop();
  });

  async function keysLike(pattern: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 10_000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  it('keeps the real key’s pause and slot, and every map within its bound', async () => {
    // Read from the running gateway: the budget is no part of its public surface.
    const budget = (h.live.activity as unknown as { options: { client: { options: { budget: KeyBudget } } } })
      .options.client.options.budget;
    const realSlots = `gateway:{slots}:${hashKey(`Bearer ${REAL}`)}`;
    const callsOfReal = () => h.upstreamCalls().filter((r) => r.authorization === `Bearer ${REAL}`).length;

    const held = subscribe(h, 'sse', REAL, ACTIVITY);
    held.next().catch(() => undefined);
    await until(async () => (await client.zcard(realSlots)) >= 1, '(await client.zcard(realSlots)) >= 1', {
      withinMs: 20_000,
    });
    expect(await client.zcard(realSlots)).toBe(1);

    h.upstream.faults.add({
      path: 'pipeline_destination_configs/3/',
      times: 1,
      action: {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '240' },
        body: { type: 'throttled_error', code: 'throttled', detail: 'Request was throttled.', attr: null },
      },
    });
    const throttled = await h.gql(ONE_CONFIG, {}, REAL);
    expect(throttled.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 240 });

    // The flood: each invented key makes one upstream call (a 401) and gets a budget entry.
    await inBatches(INVENTED, 50, async (i) => {
      const { body } = await h.gql(ONE_CONFIG, {}, `phx_invented_${i}`);
      expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    });
    // Subscriptions of invented keys: each takes a slot, is refused by its first poll, and ends.
    await inBatches(300, 30, async (i) => {
      const s = subscribe(h, 'sse', `phx_invented_${i}`, ACTIVITY);
      const answer = await s.next();
      expect(answer.value.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      await s.return();
      s.dispose();
    });

    expect(budget.size).toBeLessThanOrEqual(MAX_KEYS);
    expect(budget.size).toBeGreaterThan(MAX_KEYS - 100);
    // The pause holds: refused at once, nothing sent upstream.
    const before = callsOfReal();
    const paused = await h.gql(ONE_CONFIG, {}, REAL);
    expect(paused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(callsOfReal()).toBe(before);
    // The slot holds: the real key's subscription is the one it may have, here and in Redis.
    await until(() => h.live.slots.open <= 1, 'h.live.slots.open <= 1', { withinMs: 20_000 });
    expect(h.live.slots.open).toBe(1);
    expect(await client.zcard(realSlots)).toBe(1);
    const second = subscribe(h, 'sse', REAL, ACTIVITY);
    const refused = await second.next();
    expect(refused.value.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'subscriptions',
    });
    second.dispose();
    // The invented keys left no slot in Redis.
    // (A slot is given back without waiting for Redis: a bounded wait for the last ones.)
    await until(
      async () => (await keysLike('gateway:{slots}:*')).length <= 1,
      '(await keysLike("gateway:{slots}:*")).length <= 1',
      { withinMs: 20_000 },
    );
    expect(await keysLike('gateway:{slots}:*')).toEqual([realSlots]);
    // Redis counts the budget of MAX_COUNTED_KEYS keys at most (two hashes each): 10,001 came.
    expect(await client.zcard(`gateway:${BUDGET_KEYS}`)).toBe(MAX_COUNTED_KEYS);
    expect((await keysLike('gateway:{budget}:*:[sm]')).length).toBeLessThanOrEqual(2 * MAX_COUNTED_KEYS);
    // Their refusals are one bounded set, with a TTL; no acceptance was written for any of them.
    expect(await client.zcard(`gateway:${REFUSED_KEYS}`)).toBeLessThanOrEqual(MAX_REFUSED_KEYS);
    expect(await client.pttl(`gateway:${REFUSED_KEYS}`)).toBeGreaterThan(0);
    expect(await keysLike('gateway:{standing}:accepted:*')).toEqual([
      `gateway:{standing}:accepted:${hashKey(`Bearer ${REAL}`)}`,
    ]);

    await held.return();
    held.dispose();
  }, 300_000);
});
