// What PostHog said of a key, shared through Redis (shared-state/shared-standing.ts): a key one
// gateway process saw refused (401) is refused by another without an upstream call; a key one saw
// accepted (2xx) is remembered in Redis for the others, with a TTL. With Redis stopped, each
// process remembers alone.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/core/caller-key.ts';
import { projectGlobalId } from '../../support/harness.ts';
import { type GatewayProcess, RedisServer, startGatewayProcess } from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
const IDS = Array.from({ length: 48 }, (_, i) => projectGlobalId(String(i + 1)));
const ONE_PROJECT = '{ project(projectId: "1") { name } }';

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
type Answer = { data?: any; errors?: any[] };

async function gql(gateway: GatewayProcess, query: string, variables: object, key: string): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return response.json() as Promise<Answer>;
}

const codes = (answer: Answer) => [...new Set((answer.errors ?? []).map((e) => e.extensions.code))];

describe('the standing of keys across two gateway processes sharing one Redis', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let client: Redis;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const callsOf = (key: string) => upstream.requests.filter((r) => r.authorization === `Bearer ${key}`);

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    client = new Redis(redis.url);
    const env = { REDIS_URL: redis.url, KEY_REFUSED_TTL_MS: '60000', KEY_ACCEPTED_TTL_MS: '600000' };
    [a, b] = await Promise.all([
      startGatewayProcess(upstream.url, env),
      startGatewayProcess(upstream.url, env),
    ]);
  }, 60_000);
  afterAll(async () => {
    client?.disconnect();
    await Promise.all([a?.stop(), b?.stop()]);
    await upstream?.close();
    await redis?.stop();
  });

  it('a key refused on one process is refused on the other without an upstream call', async () => {
    const key = 'phx_made_up_shared';
    const first = await gql(a, NODES, { ids: IDS }, key);
    expect(codes(first)).toEqual(['UNAUTHENTICATED']);
    expect(first.errors).toHaveLength(48);
    expect(callsOf(key)).toHaveLength(1);
    // The refusal is in Redis, with a TTL, under the key's hash (never the key).
    const refused = 'gateway:{standing}:refused';
    await until(
      async () => (await client.zscore(refused, hashKey(`Bearer ${key}`))) !== null,
      'the refusal in Redis',
    );
    expect(await client.zscore(refused, hashKey(`Bearer ${key}`))).not.toBeNull();
    expect(await client.pttl(refused)).toBeGreaterThan(0);
    expect(await client.keys('*phx_*')).toEqual([]);

    const second = await gql(b, NODES, { ids: IDS }, key);
    expect(codes(second)).toEqual(['UNAUTHENTICATED']);
    expect(second.errors![0].message).toMatch(/refused by PostHog moments ago/);
    expect(callsOf(key)).toHaveLength(1);
  });

  it('a key accepted on one process is remembered in Redis for the others, with a TTL', async () => {
    expect((await gql(a, ONE_PROJECT, {}, 'phx_legacy')).errors).toBeUndefined();
    const accepted = `gateway:{standing}:accepted:${hashKey('Bearer phx_legacy')}`;
    await until(async () => (await client.pttl(accepted)) >= 0, 'the acceptance in Redis');
    const ttl = await client.pttl(accepted);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000);
    // The real key is served on the other process too.
    expect((await gql(b, ONE_PROJECT, {}, 'phx_legacy')).errors).toBeUndefined();
  });

  it('with Redis stopped, each process still refuses a key it saw refused, alone', async () => {
    await redis.stop();
    const key = 'phx_made_up_alone';
    expect(codes(await gql(a, ONE_PROJECT, {}, key))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(a, ONE_PROJECT, {}, key))).toEqual(['UNAUTHENTICATED']);
    expect(callsOf(key)).toHaveLength(1);
    // The other process never heard of it: it asks the upstream once.
    expect(codes(await gql(b, ONE_PROJECT, {}, key))).toEqual(['UNAUTHENTICATED']);
    expect(callsOf(key)).toHaveLength(2);
    // A real key goes on being served.
    expect((await gql(b, ONE_PROJECT, {}, 'phx_full')).errors).toBeUndefined();
  }, 30_000);
});
