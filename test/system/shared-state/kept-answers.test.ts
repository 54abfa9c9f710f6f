// GET answers kept in Redis (shared-state/redis-shelf.ts) by two gateway processes sharing it,
// counted in the reference upstream's request log: what one process read answers the other; a
// read in flight on one is not made again by the other; a write through one drops what the other
// would answer; two keys never share an entry; Redis holds no key, only hashes, each with a TTL,
// and no more bytes than UPSTREAM_CACHE_MAX_BYTES.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configId } from '../../support/harness.ts';
import { holdRequests } from '../../support/hold-requests.ts';
import { type GatewayProcess, RedisServer, startGatewayProcess } from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const MAX_BYTES = 16_384;
const ROUTE = '/api/projects/:project_id/pipeline_destination_configs/:id/';
const configPath = (id: number) => `/api/projects/1/pipeline_destination_configs/${id}/`;
const readOf = (id: number) =>
  `{ project(projectId: "1") { destinationConfig(databaseId: ${id}) { name } } }`;
const UPDATE =
  'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Written"}) { destinationConfig { name } } }';

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
type Answer = { data?: any; errors?: any[] };

async function gql(
  gateway: GatewayProcess,
  query: string,
  key = 'phx_full',
  variables = {},
): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return response.json() as Promise<Answer>;
}

describe('answers kept in Redis, shared by two gateway processes', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const reads = (id: number) =>
    upstream.requests.filter((r) => r.method === 'GET' && r.path === configPath(id));

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([
      startReferenceUpstream({ dialect: 'posthog' }),
      RedisServer.start(),
    ]);
    const env = {
      REDIS_URL: redis.url,
      UPSTREAM_CACHE_TTL_MS: '600000',
      UPSTREAM_CACHE_MAX_BYTES: String(MAX_BYTES),
      KEY_SCOPES_REFRESH_MS: '0',
    };
    [a, b] = await Promise.all([
      startGatewayProcess(upstream.url, env),
      startGatewayProcess(upstream.url, env),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await upstream?.close();
    await redis?.stop();
  });

  it('answers a read on one process with what the other read, without a second call', async () => {
    const first = await gql(a, readOf(5));
    expect(first.errors).toBeUndefined();
    const second = await gql(b, readOf(5));
    expect(second.data).toEqual(first.data);
    expect(reads(5)).toHaveLength(1);
  });

  it('makes a read in flight on one process once for both', async () => {
    const held = holdRequests(upstream, (url) => url.startsWith(configPath(6)));
    try {
      const first = gql(a, readOf(6));
      await until(() => held.held() === 1, 'the first read held');
      const second = gql(b, readOf(6));
      await settle(300);
      expect(held.held()).toBe(1);
      held.release();
      const [one, two] = await Promise.all([first, second]);
      expect(one.errors).toBeUndefined();
      expect(two.data).toEqual(one.data);
      expect(reads(6)).toHaveLength(1);
      // Each process counts how its reads were answered, by route: b followed a's read.
      const metrics = await (await fetch(`${b.origin}/metrics`)).text();
      const followed = `gateway_upstream_kept_answers_total{route="${ROUTE}",outcome="followed"}`;
      expect(metrics).toContain(followed);
    } finally {
      held.release();
    }
  });

  it('drops what both would answer when one process writes the resource', async () => {
    await gql(b, readOf(7));
    expect(reads(7)).toHaveLength(1);
    const written = await gql(a, UPDATE, 'phx_full', { id: configId('1', 7) });
    expect(written.errors).toBeUndefined();
    const after = await gql(b, readOf(7));
    expect(after.data.project.destinationConfig.name).toBe('Written');
    expect(reads(7)).toHaveLength(2);
  });

  it('never answers one key with what another key read', async () => {
    await gql(a, readOf(8), 'phx_full');
    await gql(b, readOf(8), 'phx_read');
    expect(reads(8).map((call) => call.authorization)).toEqual(['Bearer phx_full', 'Bearer phx_read']);
  });

  it('holds hashes of keys only, each with a TTL, within UPSTREAM_CACHE_MAX_BYTES', async () => {
    for (let id = 5; id <= 12; id++) await gql(id % 2 ? a : b, readOf(id));
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('*{kept}*');
      expect(keys.length).toBeGreaterThan(3);
      for (const key of keys) {
        expect(key).not.toContain('phx_');
        expect(await client.pttl(key)).toBeGreaterThan(0);
      }
      const entries = keys.filter((key) => key.includes('{kept}:e:'));
      for (const key of entries) expect(JSON.stringify(await client.hgetall(key))).not.toContain('phx_');
      const total = Number(await client.get(keys.find((key) => key.endsWith('{kept}:total'))!));
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(MAX_BYTES);
    } finally {
      client.disconnect();
    }
  });
});
