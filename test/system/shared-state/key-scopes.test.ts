// Each key's own answer (its scopes), shared through Redis (shared-state/shared-grants.ts): what
// one gateway process read of a key, another uses without reading it again, and refuses the
// fields its scopes cannot serve without an upstream call.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, RedisServer, startGatewayProcess } from '../../support/redis-server.ts';

const CURRENT = '/api/personal_api_keys/@current/';
const HOG = '{ project(projectId: "1") { hogFunctions(first: 2) { edges { node { name } } } } }';

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
type Answer = { data?: any; errors?: any[] };

async function gql(gateway: GatewayProcess, query: string, key: string): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query }),
  });
  return response.json() as Promise<Answer>;
}

describe('the scopes of keys across two gateway processes sharing one Redis', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const calls = (part: string) => upstream.requests.filter((r) => r.path.includes(part)).length;

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([
      startReferenceUpstream({ dialect: 'posthog-2026' }),
      RedisServer.start(),
    ]);
    const env = { REDIS_URL: redis.url, KEY_SCOPES_REFRESH_MS: '300000' };
    [a, b] = await Promise.all([
      startGatewayProcess(upstream.url, env),
      startGatewayProcess(upstream.url, env),
    ]);
    upstream.clearRequests();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await upstream?.close();
    await redis?.stop();
  });

  it('a key read on one process is known to the other: no second read, no call it would be refused', async () => {
    const first = await gql(a, HOG, 'phx_batch_read');
    expect(first.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', scope: 'hog_function:read' });
    expect(calls(CURRENT)).toBe(1);
    const second = await gql(b, HOG, 'phx_batch_read');
    expect(second.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', scope: 'hog_function:read' });
    expect(calls(CURRENT)).toBe(1);
    expect(calls('/hog_functions/')).toBe(0);
  });

  it('a key PostHog refuses (401) leaves no grant in Redis, and is not read again', async () => {
    const client = new Redis(redis.url);
    try {
      const before = await client.keys('*grants:*');
      const reads = calls(CURRENT);
      for (const gateway of [a, b, a]) {
        const answer = await gql(gateway, HOG, 'phx_nobody_issued');
        expect(answer.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      }
      // The refusal is the key standing's (shared, bounded), not a grant's.
      expect(calls(CURRENT)).toBe(reads + 1);
      expect(await client.keys('*grants:*')).toEqual(before);
    } finally {
      client.disconnect();
    }
  });
});
