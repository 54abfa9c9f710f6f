// The shared APQ store holds no more than one process's memory does (apq-limits.ts: 1,000 texts,
// 16 MiB, 1 MiB a text), for every gateway sharing the Redis together: callers without a key
// register texts past the bound through two gateways at once, and Redis's own figures (the texts'
// lengths, INFO memory) show it held. A text over the per-text limit is never stored, and what is
// stored still runs everywhere.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APQ_LIMITS } from '../../../src/persisted-operations/apq-limits.ts';
import { sha256 } from '../../../src/persisted-operations/manifest.ts';
import { type GatewayServer, type Harness, startGatewayServer, startHarness } from '../../support/harness.ts';
import { inBatches } from '../../support/in-batches.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const MiB = 1024 * 1024;

/** `{ __typename }` under a comment of about `bytes`, made distinct by `n`. */
const padded = (n: number, bytes: number) => `# ${n} ${'x'.repeat(bytes)}\n{ __typename }`;

/** An APQ registration (the text with its hash), sent without a key. */
async function register(url: string, query: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    }),
  });
  return (await response.json()) as {
    data?: { __typename: string };
    errors?: { extensions: { code: string } }[];
  };
}

async function byHash(url: string, query: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } }),
  });
  return (await response.json()) as {
    data?: { __typename: string };
    errors?: { extensions: { code: string } }[];
  };
}

describe('the shared APQ store under a flood of texts from callers without a key', () => {
  let redis: RedisServer;
  let client: Redis;
  let h: Harness;
  let other: GatewayServer;

  /** What Redis holds of APQ texts: their count and the bytes of their values, and its own tally. */
  async function held() {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', 'gateway:{apq}:text:*', 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    let bytes = 0;
    for (const key of keys) bytes += await client.strlen(key);
    const counted = Number((await client.get('gateway:{apq}:bytes')) ?? 0);
    return { texts: keys.length, bytes, counted, indexed: await client.zcard('gateway:{apq}:index') };
  }
  let sentinels = 0;
  /**
   * Registrations go to Redis after their answer: a new text through each gateway, once it is in
   * the index, says that gateway's earlier registrations are there (one connection, in order).
   */
  async function settled() {
    for (const url of [h.url, other.url]) {
      const sentinel = `# sentinel ${sentinels++}\n{ __typename }`;
      await register(url, sentinel);
      const key = `gateway:{apq}:text:${sha256(sentinel)}`;
      await until(
        async () => (await client.zscore('gateway:{apq}:index', key)) !== null,
        'the sentinel in the APQ index',
      );
      expect(await client.zscore('gateway:{apq}:index', key)).not.toBeNull();
    }
  }
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    h = await startHarness({ env: { REDIS_URL: redis.url } });
    other = await startGatewayServer(h.upstream.url, { REDIS_URL: redis.url });
  }, 30_000);
  afterAll(async () => {
    client?.disconnect();
    await other?.close();
    await h?.close();
    await redis?.stop();
  });

  it('40 MB of 400 KB texts through two gateways at once: Redis keeps 16 MiB of them at most', async () => {
    const before = await usedMemory();
    const gateways = [h.url, other.url];
    // 100 distinct texts of 400 KB each (each within the 1 MiB per-text limit as a process weighs
    // it, UTF-16: 800 KB), 2.4 times the bound, 10 at a time through both gateways.
    await inBatches(100, 10, async (i) => {
      const answer = await register(gateways[i % 2]!, padded(i, 400_000));
      expect(answer.data).toEqual({ __typename: 'Query' });
    });
    await settled();
    const after = await held();
    const grown = (await usedMemory()) - before;
    console.info(
      `APQ flood of 100 × 400 KB: Redis holds ${after.texts} texts, ${after.bytes} bytes of text; used_memory grew ${grown} bytes`,
    );
    expect(after.bytes).toBeLessThanOrEqual(APQ_LIMITS.maxBytes);
    expect(after.bytes).toBeGreaterThan(APQ_LIMITS.maxBytes - 2 * 400_000);
    // The tally counts each text's key name besides its value, and matches what is there.
    expect(after.counted).toBeGreaterThanOrEqual(after.bytes);
    expect(after.counted).toBeLessThanOrEqual(APQ_LIMITS.maxBytes);
    expect(after.indexed).toBe(after.texts);
    // Redis's own figure, not 40 MB: the texts as its allocator holds them (jemalloc gives a
    // 400 KB string 448 KiB) and their bookkeeping.
    expect(grown).toBeLessThan(1.25 * APQ_LIMITS.maxBytes + MiB);
    // The newest stay, and run by hash on either gateway.
    const newest = padded(99, 400_000);
    expect((await byHash(other.url, newest)).data).toEqual({ __typename: 'Query' });
    expect((await byHash(h.url, padded(98, 400_000))).data).toEqual({ __typename: 'Query' });
    // The oldest went first.
    expect(await client.exists(`gateway:{apq}:text:${sha256(padded(0, 400_000))}`)).toBe(0);
  }, 60_000);

  it('a 1 MB comment around { __typename } runs, and is never stored (over the per-text limit)', async () => {
    const before = await held();
    for (let i = 0; i < 20; i++) {
      const answer = await register(h.url, padded(1_000 + i, 1_000_000));
      expect(answer.data).toEqual({ __typename: 'Query' });
    }
    await settled();
    const after = await held();
    // Two small sentinels more at most (they may have pushed out an old text), nothing else.
    expect(after.texts).toBeLessThanOrEqual(before.texts + 2);
    expect(after.bytes).toBeLessThanOrEqual(before.bytes + 100);
    for (let i = 0; i < 20; i++)
      expect(await client.exists(`gateway:{apq}:text:${sha256(padded(1_000 + i, 1_000_000))}`)).toBe(0);
    expect((await byHash(other.url, padded(1_000, 1_000_000))).errors?.[0]?.extensions.code).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  }, 60_000);

  it('1,100 small texts: Redis keeps 1,000 (the newest), and its tally is their sum', async () => {
    await inBatches(1_100, 50, (i) => register(i % 2 ? h.url : other.url, `# small ${i}\n{ __typename }`));
    await settled();
    const after = await held();
    expect(after.texts).toBe(APQ_LIMITS.maxEntries);
    expect(after.indexed).toBe(APQ_LIMITS.maxEntries);
    expect(after.bytes).toBeLessThan(MiB);
    expect((await byHash(other.url, '# small 1099\n{ __typename }')).data).toEqual({ __typename: 'Query' });
    // Every text has a TTL, and so have the index, the sizes and the tally.
    for (const key of ['gateway:{apq}:index', 'gateway:{apq}:sizes', 'gateway:{apq}:bytes'])
      expect(await client.ttl(key), key).toBeGreaterThan(0);
    const sizes = await client.hvals('gateway:{apq}:sizes');
    expect(sizes).toHaveLength(APQ_LIMITS.maxEntries);
    expect(sizes.reduce((sum, size) => sum + Number(size), 0)).toBe(after.counted);
  }, 60_000);
});
