// The slots a process holds in Redis are renewed together: 2,500 slots of one key, held, all have
// their lapse moved on at the next renewal (one ZADD per thousand of them), and none is lost or
// added on the way; given back, they leave the key's set.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeyHash } from '../../../src/core/caller-key.ts';
import { connectRedis } from '../../../src/shared-state/index.ts';
import type { SharedRedis } from '../../../src/shared-state/redis.ts';
import { SharedSlots } from '../../../src/shared-state/shared-slots.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const HELD = 2_500;
const KEY = 'renewed-key' as KeyHash;

let server: RedisServer;
let redis: SharedRedis;
let reader: Redis;
beforeAll(async () => {
  server = await RedisServer.start();
  redis = await connectRedis({
    url: server.url,
    label: server.url,
    keyPrefix: 'slots-test:',
    requiredForReady: false,
  });
  reader = new Redis(server.url);
}, 30_000);
afterAll(async () => {
  reader?.disconnect();
  await redis?.close();
  await server?.stop();
});

it(`renews ${HELD} slots of one key at once, and lets them go`, { timeout: 30_000 }, async () => {
  const slots = new SharedSlots(redis, HELD);
  const members: string[] = [];
  for (let i = 0; i < HELD; i++) {
    const member = await slots.reserve(KEY);
    expect(member).toBeTypeOf('string');
    slots.hold(KEY, member as string);
    members.push(member as string);
  }
  expect(await slots.reserve(KEY)).toBe(false);
  const set = `slots-test:{slots}:${KEY}`;
  const scores = async () =>
    (await reader.zrange(set, '0', '-1', 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number);
  const first = Math.max(...(await scores()));
  await until(async () => Math.min(...(await scores())) > first, 'every slot renewed', {
    withinMs: 20_000,
    everyMs: 200,
  });
  expect(await reader.zcard(set)).toBe(HELD);
  slots.close();
  await until(async () => (await reader.zcard(set)) === 0, 'every slot given back');
  expect(await reader.zcard(set)).toBe(0);
});
