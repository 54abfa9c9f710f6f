// Two gateway processes over a Redis Cluster of three masters each with a replica: the master
// holding a subscription's poller (its lease, position and sharded channel) killed mid-run, its
// replica takes its slots over; both processes subscribe again on it, and the entries that came
// during the failover and after reach the subscribers of both once each, in order.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import { asHarness, type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { type RedisNode, startRedisCluster } from '../../support/redis-topologies.ts';
import { until } from '../../support/wait.ts';

const POLL_MS = 400;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { activity itemId } }';
const LOG = '/api/projects/1/activity_log/';

/** What one node says, asked of it alone; null when it does not answer. */
async function ask<T>(node: RedisNode, question: (client: Redis) => Promise<T>): Promise<T | null> {
  if (!node.running) return null;
  const client = new Redis(node.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return await question(client);
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

const isMaster = (client: Redis) => client.call('ROLE').then((role) => (role as string[])[0] === 'master');
/** Subscribers of the poller's sharded channel on this node. */
const listenersOn = (client: Redis) =>
  (client.call('PUBSUB', 'SHARDCHANNELS', 'gateway:activity:*') as Promise<string[]>).then(
    async (channels) =>
      channels.length === 0
        ? 0
        : Number(((await client.call('PUBSUB', 'SHARDNUMSUB', channels[0]!)) as unknown[])[1]),
  );

describe('a Redis Cluster master failing over under two gateway processes', () => {
  let upstream: ReferenceUpstream;
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let gateways: GatewayProcess[] = [];
  const streams: Subscription[] = [];
  let next = 0;
  const burst = (count: number) =>
    Array.from({ length: count }, () => pushEntry(upstream.store, 'FeatureFlag', String(next++)).item_id!);
  const listeners = async () =>
    (await Promise.all(cluster.nodes.map((node) => ask(node, listenersOn)))).reduce<number>(
      (sum, n) => sum + (n ?? 0),
      0,
    );

  beforeAll(async () => {
    [upstream, cluster] = await Promise.all([
      startReferenceUpstream({ dialect: 'spec' }),
      startRedisCluster(3, 1),
    ]);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${cluster.nodes[0]!.port}`,
      REDIS_CLUSTER: 'true',
      ACTIVITY_POLL_MS: String(POLL_MS),
    };
    gateways = await Promise.all([0, 1].map(() => startGatewayProcess(upstream.url, env)));
  }, 180_000);

  afterAll(async () => {
    for (const s of streams) s.dispose();
    await Promise.all(gateways.map((g) => g.stop()));
    await Promise.all([cluster?.stop(), upstream?.close()]);
  });

  it('delivers every entry once to both processes across the failover', async () => {
    streams.push(subscribe(asHarness(gateways[0]!), 'sse', 'phx_full', ACTIVITY));
    await until(() => upstream.requests.some((r) => r.path === LOG && r.status !== null), 'a poll answered', {
      withinMs: 30_000,
    });
    streams.push(subscribe(asHarness(gateways[1]!), 'sse', 'phx_full', ACTIVITY));
    await until(async () => (await listeners()) === 2, 'both on the sharded channel', {
      withinMs: 30_000,
      everyMs: 200,
    });
    const before = burst(3);
    for (const s of streams) expect(await takeItemIds(s, 3, 30_000)).toEqual(before);

    // The master that holds the poller's channel (and its lease and position: one slot).
    const holders = await Promise.all(cluster.nodes.map(async (node) => (await ask(node, listenersOn)) ?? 0));
    const victim = cluster.nodes[holders.findIndex((n) => n > 0)]!;
    expect(await ask(victim, isMaster)).toBe(true);
    await victim.stop();
    const during = burst(5);
    const masters = async () =>
      (await Promise.all(cluster.nodes.map((node) => ask(node, isMaster)))).filter(Boolean);
    await until(async () => (await masters()).length === 3, 'a replica promoted in its place', {
      withinMs: 90_000,
      everyMs: 250,
    });
    await until(async () => (await listeners()) === 2, 'both subscribed again on the new master', {
      withinMs: 90_000,
      everyMs: 250,
    });
    const after = burst(5);
    for (const s of streams) expect(await takeItemIds(s, 10, 60_000)).toEqual([...during, ...after]);
    const last = burst(1);
    for (const s of streams) expect(await takeItemIds(s, 1, 30_000)).toEqual(last);
  }, 300_000);
});
