// Two gateway processes whose Redis master is named by three Sentinels (REDIS_SENTINELS,
// REDIS_SENTINEL_NAME), the master killed mid-subscription: the Sentinels promote its replica, the
// gateways find it and subscribe there again; the subscriptions (one on its poller's lease
// holder, one on the other process, which reads again what it did not hear) get the entries that
// came during the failover and after, once each, in order; a
// key paused by a 429's Retry-After before the failover, on both processes through Redis, stays
// paused on both after it, without an upstream call.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import { asHarness, type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { type SentinelGroup, startSentinelGroup } from '../../support/redis-topologies.ts';
import { settle, until } from '../../support/wait.ts';

const POLL_MS = 400;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { activity itemId } }';
const LOG = '/api/projects/1/activity_log/';
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
type Answer = { data?: any; errors?: any[] };

async function gql(gateway: GatewayProcess, key: string): Promise<Answer> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: ONE_CONFIG }),
  });
  return response.json() as Promise<Answer>;
}

/** Redis answers this process again (it may be slow on a busy machine: that is not lost). */
const healthy = async (gateway: GatewayProcess) => {
  const body = (await (await fetch(`${gateway.origin}/health`)).json()) as { degraded: string[] };
  return !body.degraded.includes('redis');
};

describe('a Sentinel-managed master failing over under two gateway processes', () => {
  let upstream: ReferenceUpstream;
  let group: SentinelGroup;
  let gateways: GatewayProcess[] = [];
  let stream: Subscription;
  let onOther: Subscription;
  let next = 0;
  const callsOf = (key: string) => upstream.requests.filter((r) => r.authorization === `Bearer ${key}`);
  const burst = (count: number) =>
    Array.from({ length: count }, () => pushEntry(upstream.store, 'FeatureFlag', String(next++)).item_id!);

  beforeAll(async () => {
    [upstream, group] = await Promise.all([
      startReferenceUpstream({ dialect: 'spec' }),
      startSentinelGroup(),
    ]);
    const env = {
      // Its host is unused: the Sentinels name the master.
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_SENTINELS: group.list,
      REDIS_SENTINEL_NAME: 'mymaster',
      ACTIVITY_POLL_MS: String(POLL_MS),
    };
    gateways = await Promise.all([0, 1].map(() => startGatewayProcess(upstream.url, env)));
  }, 120_000);

  afterAll(async () => {
    stream?.dispose();
    onOther?.dispose();
    await Promise.all(gateways.map((g) => g.stop()));
    await Promise.all([group?.stop(), upstream?.close()]);
  });

  it('delivers every entry once across the failover, and keeps a key’s pause on both processes', async () => {
    const [a, b] = gateways as [GatewayProcess, GatewayProcess];
    stream = subscribe(asHarness(b), 'sse', 'phx_full', ACTIVITY);
    await until(() => upstream.requests.some((r) => r.path === LOG && r.status !== null), 'a poll answered', {
      withinMs: 30_000,
    });
    onOther = subscribe(asHarness(a), 'sse', 'phx_full', ACTIVITY);
    await settle(2_000); // it joins the poller B holds
    const before = burst(3);
    for (const s of [stream, onOther]) expect(await takeItemIds(s, 3, 30_000)).toEqual(before);

    // A 429 with Retry-After: 120 on A pauses the key there, and on B through Redis.
    const key = 'phx_plugin_rw';
    await fetch(`${upstream.url}/__control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        path: '/pipeline_destination_configs/3/',
        times: 1,
        action: {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': '120' },
          body: { detail: 'slow down' },
        },
      }),
    });
    expect((await gql(a, key)).errors?.[0].extensions.code).toBe('RATE_LIMITED');
    await settle(200); // the pause's message crosses Redis
    const callsBefore = callsOf(key).length;
    expect((await gql(b, key)).errors?.[0].extensions.code).toBe('RATE_LIMITED');

    const oldMaster = await group.masterPort();
    expect(oldMaster).toBe(group.master.port);
    await group.master.stop();
    const during = burst(5);
    await until(async () => (await group.masterPort()) !== oldMaster, 'the Sentinels promote the replica', {
      withinMs: 60_000,
      everyMs: 200,
    });
    expect(await group.masterPort()).toBe(group.replica.port);
    for (const g of gateways)
      await until(() => healthy(g), 'the gateway back on the new master', { withinMs: 90_000, everyMs: 200 });
    // Both have subscribed again, on the new master.
    const promoted = new Redis(group.replica.port, '127.0.0.1');
    const wakeListeners = async () =>
      Number(((await promoted.pubsub('NUMSUB', 'gateway:wake')) as unknown[])[1]);
    try {
      await until(async () => (await wakeListeners()) === 2, 'both subscribed on the new master', {
        withinMs: 60_000,
        everyMs: 200,
      });
      expect(await wakeListeners()).toBe(2);
    } finally {
      promoted.disconnect();
    }
    const after = burst(5);
    for (const s of [stream, onOther])
      expect(await takeItemIds(s, 10, 60_000)).toEqual([...during, ...after]);
    // Nothing twice: the next entry is the next one delivered.
    const last = burst(1);
    for (const s of [stream, onOther]) expect(await takeItemIds(s, 1, 30_000)).toEqual(last);

    for (const g of gateways) {
      const paused = await gql(g, key);
      expect(paused.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    }
    expect(callsOf(key).length).toBe(callsBefore);
  }, 240_000);
});
