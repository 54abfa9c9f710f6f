// Redis stopped and started again under traffic, with the gateway started as production starts
// it (harness.ts) and a real redis-server: the process serves throughout, so /ready stays 200;
// /health says degraded while Redis is lost and not after, gateway_redis_up goes 1 → 0 → 1, the
// log has one line for the loss and one for the return, queries answer all along, and an open
// subscription's entries arrive once each across the outage. With READY_REQUIRES_REDIS=true,
// /ready follows Redis instead; a bad value of it stops start-up naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { subscribe } from '../../support/clients.ts';
import {
  configId,
  type GatewayServer,
  type Harness,
  startGatewayServer,
  startHarness,
} from '../../support/harness.ts';
import { parsePrometheus, total } from '../../support/prometheus.ts';
import { RedisServer } from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';
const ACTIVITY = 'subscription { activityAdded(projectId: "1") { activity itemId detail } }';
const RENAME = `mutation($id: ID!, $name: String!) {
  updateDestinationConfig(input: { id: $id, name: $name }) { destinationConfig { name } }
}`;

const originOf = (url: string) => url.replace('/graphql', '');
const health = async (url: string) => {
  const response = await fetch(`${originOf(url)}/health`);
  return { status: response.status, body: (await response.json()) as { status: string; degraded: string[] } };
};
const ready = async (url: string) => {
  const response = await fetch(`${originOf(url)}/ready`);
  const { reason } = (await response.json()) as { reason: string };
  return { code: response.status, reason };
};
/**
 * /ready's status once the upstream probe has answered: a probe may time out on a loaded machine
 * (1 s), which is no business of Redis's, so a few polls are allowed for it (a bounded wait).
 */
async function readyStatus(url: string) {
  let answer = await ready(url);
  for (let i = 0; i < 20 && answer.code !== 200 && !answer.reason.includes('Redis'); i++) {
    await settle(250);
    answer = await ready(url);
  }
  return answer.code;
}
const redisUp = async (url: string) =>
  total(parsePrometheus(await (await fetch(`${originOf(url)}/metrics`)).text()), 'gateway_redis_up');

/** Polls /health until it says `degraded` is `wanted` (a bounded wait). */
async function untilDegraded(url: string, wanted: string[]) {
  for (let i = 0; i < 2_000; i++) {
    if (JSON.stringify((await health(url)).body.degraded) === JSON.stringify(wanted)) return;
    await settle(25);
  }
  throw new Error(`/health never said degraded: ${JSON.stringify(wanted)}`);
}

/** The log lines of Redis's transitions (observability/wiring.ts). */
const transitions = (logs: string[]) =>
  logs.map((line) => JSON.parse(line) as { redis?: string; level: number }).filter((line) => line.redis);

describe('Redis stopped and started again under traffic', () => {
  let redis: RedisServer;
  let h: Harness;
  let strict: GatewayServer;

  beforeAll(async () => {
    redis = await RedisServer.start();
    h = await startHarness({ env: { REDIS_URL: redis.url, ACTIVITY_POLL_MS: '200' } });
    strict = await startGatewayServer(h.upstream.url, { REDIS_URL: redis.url, READY_REQUIRES_REDIS: 'true' });
  }, 30_000);
  afterAll(async () => {
    await strict?.close();
    await h?.close();
    await redis?.stop();
  });

  it('serves throughout: /ready 200, /health degraded then not, the metric flips, one log line each way', async () => {
    expect(await health(h.url)).toEqual({ status: 200, body: { status: 'ok', degraded: [] } });
    expect(await redisUp(h.url)).toBe(1);
    expect(await readyStatus(strict.url)).toBe(200);
    const subscription = subscribe(h, 'sse', 'phx_full', ACTIVITY);
    // Its baseline poll made, the subscription takes only what is written from now on.
    for (
      let i = 0;
      i < 1_000 && h.upstreamCalls().filter((r) => r.path.endsWith('/activity_log/')).length < 2;
      i++
    )
      await settle(20);

    // Queries all along, whatever Redis does (a bounded loop, stopped at the end).
    let running = true;
    const answers: { data?: unknown; errors?: unknown[] }[] = [];
    const traffic = (async () => {
      for (let i = 0; i < 20_000 && running; i++) answers.push((await h.gql(ONE_CONFIG)).body);
    })();

    await until(() => answers.length >= 5, 'answers.length >= 5', { withinMs: 50_000 });
    await redis.stop();
    const answeredBefore = answers.length;
    await untilDegraded(h.url, ['redis']);
    expect(await health(h.url)).toEqual({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
    expect(await readyStatus(h.url)).toBe(200);
    expect((await health(h.url)).body.degraded).toEqual(['redis']);
    expect(await redisUp(h.url)).toBe(0);
    // An operator who asked for it takes the process out while Redis is lost.
    await untilDegraded(strict.url, ['redis']);
    expect(await ready(strict.url)).toMatchObject({
      code: 503,
      reason: expect.stringContaining('Redis at'),
    });
    // A write while Redis is lost: its entry comes once Redis is back, if not before.
    const renamed = await h.gql(RENAME, { id: configId('1', 7), name: 'Renamed while Redis was lost' });
    expect(renamed.body.errors).toBeUndefined();
    await until(() => answers.length >= answeredBefore + 5, 'answers.length >= answeredBefore + 5', {
      withinMs: 50_000,
    });
    const answeredWhileLost = answers.length;
    expect(answeredWhileLost).toBeGreaterThan(answeredBefore);

    await redis.resume();
    await untilDegraded(h.url, []);
    expect(await health(h.url)).toEqual({ status: 200, body: { status: 'ok', degraded: [] } });
    expect(await readyStatus(h.url)).toBe(200);
    expect(await redisUp(h.url)).toBe(1);
    await untilDegraded(strict.url, []);
    expect(await readyStatus(strict.url)).toBe(200);
    // Queries went on after the return too.
    await until(() => answers.length >= answeredWhileLost + 5, 'answers.length >= answeredWhileLost + 5', {
      withinMs: 50_000,
    });
    running = false;
    await traffic;
    console.info(
      `queries answered: ${answeredBefore} before the stop, ${answeredWhileLost} by the return, ${answers.length} in all`,
    );

    expect(answers.length).toBeGreaterThan(answeredWhileLost);
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toEqual({ project: { destinationConfig: { name: expect.any(String) } } });
    }
    const lines = transitions(h.logs);
    expect(lines.map((line) => line.redis)).toEqual(['down', 'up']);
    expect(lines[0]!.level).toBe(40);
    expect(JSON.stringify(lines[0])).toContain('/ready stays 200');
    expect(transitions(strict.logs).map((line) => line.redis)).toEqual(['down', 'up']);

    // The entry written while Redis was lost arrives (once), then the next one.
    const first = await subscription.next();
    expect(first.value.data.activityAdded).toMatchObject({ activity: 'updated', itemId: '7' });
    await h.gql(RENAME, { id: configId('1', 7), name: 'Renamed once Redis was back' });
    const second = await subscription.next();
    expect(second.value.data.activityAdded).toMatchObject({ activity: 'updated', itemId: '7' });
    expect(JSON.stringify(second.value.data.activityAdded.detail)).toContain('Renamed once Redis was back');
    await subscription.return();
    subscription.dispose();
  }, 120_000);
});

describe('READY_REQUIRES_REDIS', () => {
  it('is off by default; a bad value, or true without REDIS_URL, stops start-up naming it', () => {
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).redis?.requiredForReady).toBe(false);
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', READY_REQUIRES_REDIS: 'true' }).redis).toMatchObject(
      {
        requiredForReady: true,
      },
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379', READY_REQUIRES_REDIS: 'yes' })).toThrow(
      'READY_REQUIRES_REDIS="yes": expected one of true, false, 1, 0',
    );
    expect(() => loadConfig({ READY_REQUIRES_REDIS: 'true' })).toThrow(
      'READY_REQUIRES_REDIS=true needs REDIS_URL',
    );
  });
});
