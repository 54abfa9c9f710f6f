// Beyond one process, as a team runs it: one reference upstream, one Redis (a real redis-server),
// three gateway processes A, B and C sharing it. From the upstream's request log and the clients'
// streams: a write through A wakes subscriptions and @live queries on B and C at once (the poll
// intervals here are an hour); an APQ hash registered on A runs on B, and on B after a restart;
// the per-key cap holds across the processes; one key's upstream budget (PostHog's 480 a minute)
// is one across them; a
// 429's Retry-After on A pauses that key on B; Redis stopped mid-run degrades /health while /ready
// stays 200 and queries go on, and started again brings everything back. Start-up without Redis fails naming
// REDIS_URL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/core/caller-key.ts';
import { sha256 } from '../../../src/persisted-operations/manifest.ts';
import { subscribe } from '../../support/clients.ts';
import { configId } from '../../support/harness.ts';
import { losingRedis } from '../../support/redis-lost.ts';
import {
  asHarness,
  freePort,
  type GatewayProcess,
  RedisServer,
  RedisTap,
  startGatewayProcess,
  waitFor,
} from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const HOUR_MS = '3600000';
const ACTIVITY = 'subscription { activityAdded(projectId: "1") { activity itemId } }';
const LIVE = 'query @live { project(projectId: "1") { destinationConfig(databaseId: 7) { name } } }';
const RENAME = `mutation($id: ID!, $name: String!) {
  updateDestinationConfig(input: { id: $id, name: $name }) { destinationConfig { name } }
}`;
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
type Answer = { data?: any; errors?: any[] };

async function gql(
  gateway: GatewayProcess,
  body: Record<string, unknown>,
  key = 'phx_full',
): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<Answer>;
}

describe('three gateway processes sharing one Redis', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let c: GatewayProcess;
  const env = () => ({
    REDIS_URL: redis.url,
    ACTIVITY_POLL_MS: HOUR_MS,
    LIVE_QUERY_POLL_MS: HOUR_MS,
    MAX_SUBSCRIPTIONS_PER_KEY: '3',
    REQUEST_DEADLINE_MS: '1500',
  });
  const callsOf = (key: string) => upstream.requests.filter((r) => r.authorization === `Bearer ${key}`);

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    [a, b, c] = await Promise.all([0, 1, 2].map(() => startGatewayProcess(upstream.url, env())));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a, b, c].map((g) => g?.stop()));
    await redis?.stop();
    await upstream?.close();
  });

  it('a write through A wakes a subscription on B and a @live query on C at once', async () => {
    const subscription = subscribe(asHarness(b), 'sse', 'phx_full', ACTIVITY);
    const live = subscribe(asHarness(c), 'sse', 'phx_full', LIVE);
    const first = await live.next();
    expect(first.value.data.project.destinationConfig.name).toBeTypeOf('string');
    // The subscription's first poll (its baseline) has been made once B has read the log.
    await until(
      () => callsOf('phx_full').some((r) => r.path.endsWith('/activity_log/')),
      'B’s baseline poll',
    );
    const renamed = await gql(a, {
      query: RENAME,
      variables: { id: configId('1', 7), name: 'Renamed on A' },
    });
    expect(renamed.errors).toBeUndefined();
    // Polls are an hour apart here: only A's wake-up, through Redis, can bring these.
    const entry = await subscription.next();
    expect(entry.value.data.activityAdded).toMatchObject({ activity: 'updated', itemId: '7' });
    const pushed = await live.next();
    expect(pushed.value.data.project.destinationConfig.name).toBe('Renamed on A');
    for (const s of [subscription, live]) {
      await s.return();
      s.dispose();
    }
  });

  it('an APQ hash registered on A runs on B, and on B after a restart', async () => {
    const query = '{ project(projectId: "1") { name } }';
    const apq = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    expect((await gql(b, { extensions: apq })).errors?.[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await gql(a, { query, extensions: apq })).data.project.name).toBeTypeOf('string');
    expect((await gql(b, { extensions: apq })).data.project.name).toBeTypeOf('string');
    await b.stop();
    b = await startGatewayProcess(upstream.url, env());
    expect((await gql(b, { extensions: apq })).data.project.name).toBeTypeOf('string');
  }, 30_000);

  it('holds MAX_SUBSCRIPTIONS_PER_KEY (3) across the processes', async () => {
    const open = [a, b, c].map((g) => subscribe(asHarness(g), 'ws', 'phx_read', ACTIVITY));
    // Each holds its slot in Redis once its stream has started.
    const slots = new Redis(redis.url);
    const held = () => slots.zcard(`gateway:{slots}:${hashKey('Bearer phx_read')}`);
    await until(async () => (await held()) >= 3, '(await held()) >= 3');
    expect(await held()).toBe(3);
    slots.disconnect();
    const fourth = subscribe(asHarness(a), 'ws', 'phx_read', ACTIVITY);
    const refused = await fourth.next();
    expect(refused.value.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'subscriptions',
    });
    // Another key is not held back by it.
    const other = subscribe(asHarness(a), 'ws', 'phx_plugin_rw', ACTIVITY);
    for (const s of [...open, fourth, other]) {
      await s.return();
      s.dispose();
    }
  });

  it('puts at most PostHog’s 480 a minute of 600 calls of one key through three processes upstream', async () => {
    const key = 'phx_plugin_rw';
    const before = callsOf(key).length;
    // 600 at once, 200 through each process, all within the test's 30 s: one 60 s window.
    const { result: answers, lost } = await losingRedis([a, b, c], () =>
      Promise.all(Array.from({ length: 600 }, (_, i) => gql([a, b, c][i % 3]!, { query: ONE_CONFIG }, key))),
    );
    const sent = callsOf(key).length - before;
    // While Redis answers, its slices admit at most 480 in the window (budget-windows.test.ts).
    // A process that finds Redis lost (a loaded machine may keep it silent that long) then admits
    // alone at most its share: 480 ÷ the three processes or more it last saw.
    expect(sent).toBeLessThanOrEqual(480 + lost * 160);
    for (const answer of answers.filter((r) => r.errors?.[0]?.extensions.code === 'RATE_LIMITED'))
      expect(answer.errors![0].extensions).toMatchObject({ budget: true });
    for (const answer of answers.filter((r) => !r.data?.project))
      expect(['RATE_LIMITED', 'UPSTREAM_TIMEOUT']).toContain(answer.errors?.[0]?.extensions.code);
  }, 30_000);

  it('a 429 with Retry-After: 2 on A pauses that key on B and C for 2 s', async () => {
    const key = 'phx_full';
    await fetch(`${upstream.url}/__control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        path: '/pipeline_destination_configs/3/',
        times: 1,
        action: {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': '2' },
          body: { detail: 'slow down' },
        },
      }),
    });
    const limited = await gql(a, { query: ONE_CONFIG }, key);
    expect(limited.errors?.[0].extensions.code).toBe('RATE_LIMITED');
    await settle(100); // the pause's message crosses Redis
    const before = callsOf(key).length;
    for (const g of [b, c]) {
      const paused = await gql(g, { query: ONE_CONFIG }, key);
      expect(paused.errors?.[0].extensions.code).toBe('RATE_LIMITED');
    }
    expect(callsOf(key).length).toBe(before);
    await settle(2_100);
    expect((await gql(b, { query: ONE_CONFIG }, key)).data.project.destinationConfig.name).toBeTypeOf(
      'string',
    );
  }, 30_000);

  it('only a gateway with REDIS_URL loads ioredis (2 MB of heap and its code, for nothing, without it)', async () => {
    const probe = {
      NODE_OPTIONS: `--require ${new URL('./loaded-modules-probe.cjs', import.meta.url).pathname}`,
    };
    const loaded = async (gateway: GatewayProcess) => {
      const answer = waitFor(gateway.child, /ioredis loaded: (yes|no)/, 'gateway');
      gateway.child.kill('SIGUSR2');
      return (await answer)[1];
    };
    const alone = await startGatewayProcess(upstream.url, probe);
    const sharing = await startGatewayProcess(upstream.url, { ...probe, REDIS_URL: redis.url });
    try {
      expect(await gql(alone, { query: ONE_CONFIG })).toMatchObject({ data: expect.anything() });
      expect(await loaded(alone)).toBe('no');
      expect(await loaded(sharing)).toBe('yes');
    } finally {
      await Promise.all([alone.stop(), sharing.stop()]);
    }
  });

  it('Redis holds no caller key, and every key it holds has a TTL', async () => {
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key.startsWith('gateway:')).toBe(true);
        expect(await client.pttl(key), key).toBeGreaterThan(0);
        const type = await client.type(key);
        const value =
          type === 'string'
            ? await client.get(key)
            : type === 'hash'
              ? JSON.stringify(await client.hgetall(key))
              : JSON.stringify(await client.zrange(key, '0', '-1'));
        expect(`${key} ${value}`).not.toMatch(/phx_/);
      }
    } finally {
      client.disconnect();
    }
  });

  it('Redis stopped: /health degraded and /ready 200, queries go on within each process’s share of the budget, APQ misses; started again: all back', async () => {
    await redis.stop();
    const degraded = async (gateway: GatewayProcess) =>
      ((await (await fetch(`${gateway.origin}/health`)).json()) as { degraded: string[] }).degraded;
    await until(async () => (await degraded(a)).length > 0, '(await degraded(a)).length > 0');
    expect(await degraded(a)).toEqual(['redis']);
    expect((await fetch(`${a.origin}/ready`)).status).toBe(200);
    expect((await gql(a, { query: ONE_CONFIG })).data.project.destinationConfig.name).toBeTypeOf('string');
    // The budget falls back to this process's share of 480 (÷ the 3 processes last seen).
    const before = callsOf('phx_legacy').length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => gql(a, { query: ONE_CONFIG }, 'phx_legacy')),
    );
    const sent = callsOf('phx_legacy').length - before;
    expect(sent).toBeLessThanOrEqual(160);
    // The budget refuses only once the share is spent (how many of those then reach the upstream
    // before their deadline is the machine's speed). The processes seen in the last 6 s: A, B, C,
    // and perhaps B's first life and the test before's: a share of 480 ÷ 5 at least.
    const refused = answers.filter((r) => r.errors?.[0]?.extensions.budget === true);
    expect(refused.length).toBeLessThanOrEqual(200 - Math.floor(480 / 5));
    expect(sent).toBeGreaterThan(0);
    const query = '{ project(projectId: "2") { name } }';
    const apq = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    expect((await gql(c, { extensions: apq })).errors?.[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    await redis.resume();
    // Each process reconnects on its own schedule: C asked before it had would miss the APQ.
    for (const gateway of [a, c]) {
      await until(
        async () => (await degraded(gateway)).length === 0,
        '(await degraded(gateway)).length === 0',
      );
      expect(await degraded(gateway)).toEqual([]);
    }
    // Shared again: a registration on A reaches C.
    expect((await gql(a, { query, extensions: apq })).data.project.name).toBeTypeOf('string');
    expect((await gql(c, { extensions: apq })).data.project.name).toBeTypeOf('string');
  }, 30_000);
});

/** A gateway started with `redisUrl` that is expected to fail: its exit code and what it printed to stderr. */
async function startUpFailure(redisUrl: string): Promise<{ code: number; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, PORT: '0', DEMO_UPSTREAM: 'true', REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stderr };
}

describe('start-up without its Redis', () => {
  it('fails with one line naming REDIS_URL (and no password), exit 1', async () => {
    const port = await freePort();
    const { code, stderr } = await startUpFailure(`redis://user:s3cret@127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(stderr).toContain(`REDIS_URL: Redis at redis://127.0.0.1:${port} does not answer`);
    expect(stderr).not.toContain('s3cret');
  }, 30_000);

  it('fails the same when Redis stops answering once connected', async () => {
    const redis = await RedisServer.start();
    // Its pub/sub connection hears nothing back: the gateway's first SUBSCRIBE goes unanswered.
    const tap = await RedisTap.start(redis.port);
    tap.silenceSubscribersToCome();
    try {
      const { code, stderr } = await startUpFailure(tap.url);
      expect(code).toBe(1);
      expect(stderr).toContain(`REDIS_URL: Redis at ${tap.url} does not answer`);
    } finally {
      await tap.close();
      await redis.stop();
    }
  }, 30_000);
});
