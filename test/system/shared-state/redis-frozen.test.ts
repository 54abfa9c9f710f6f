// A Redis that stops answering without closing its connections (a paused server, a network black
// hole) is a Redis lost: within a few seconds the process says so (/health degraded) and each
// shared thing falls back to the process alone, as when Redis closes its connections
// (docs/operating.md, When Redis is lost). Without that, ioredis still called the connection
// ready: a persisted query's lookup waited on Redis for as long as it stayed silent, and /health
// said ok.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/persisted-operations/manifest.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { settle } from '../../support/wait.ts';

/** The test's bound on each wait: without the fix, none of them ended while Redis stayed frozen. */
const BOUND_MS = 8_000;
const late = () => settle(BOUND_MS).then(() => 'nothing within the bound' as const);

const UNREGISTERED = '{ __typename }';

describe('a frozen Redis', () => {
  let redis: RedisServer;
  let h: Harness;
  const health = async () => (await (await fetch(h.url.replace('/graphql', '/health'))).json()) as unknown;

  beforeAll(async () => {
    redis = await RedisServer.start();
    h = await startHarness({ env: { REDIS_URL: redis.url } });
    expect(await health()).toEqual({ status: 'ok', degraded: [] });
    redis.freeze();
  }, 30_000);
  afterAll(async () => {
    redis?.thaw();
    await h?.close();
    await redis?.stop();
  });

  it('answers a persisted query by hash from the process alone', async () => {
    const answer = await Promise.race([
      fetch(h.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          extensions: { persistedQuery: { version: 1, sha256Hash: sha256(UNREGISTERED) } },
        }),
      }).then((response) => response.json() as Promise<{ errors: { extensions: { code: string } }[] }>),
      late(),
    ]);
    expect(answer).not.toBe('nothing within the bound');
    if (answer === 'nothing within the bound') return;
    expect(answer.errors[0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  }, 20_000);

  it('says on /health that Redis is lost', async () => {
    let said: unknown;
    for (let i = 0; i < BOUND_MS / 100; i++) {
      said = await health();
      // (Slow first, while its answers are late but not yet lost: redis-slow.test.ts.)
      if ((said as { degraded: string[] }).degraded.includes('redis')) break;
      await settle(100);
    }
    expect(said).toEqual({ status: 'degraded', degraded: ['redis'] });
  }, 20_000);

  it('is counted back once it answers again', async () => {
    redis.thaw();
    let said: unknown;
    for (let i = 0; i < 100; i++) {
      said = await health();
      if (!JSON.stringify(said).includes('redis')) break;
      await settle(100);
    }
    expect(said).toEqual({ status: 'ok', degraded: [] });
  }, 20_000);
});
