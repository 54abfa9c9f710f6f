// Two gateway processes over a Redis Cluster of three masters (REDIS_CLUSTER=true, REDIS_URL one
// seed node): the budget of a key counted once across both (its counts on one slot, `{budget}`);
// one activity poller for the subscribers of both, its messages on a sharded channel (SSUBSCRIBE,
// Redis 7), each entry delivered to each subscriber once, in order; a 429's pause heard by the
// other process. A master failing over to its replica: redis-cluster-failover.test.ts.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import { asHarness, type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { type RedisNode, startRedisCluster } from '../../support/redis-topologies.ts';
import { until } from '../../support/wait.ts';

const POLL_MS = 400;
const BUDGET = 20;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { activity itemId } }';
const LOG = '/api/projects/1/activity_log/';
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

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

/** Each node's answer to a command, asked of each node alone. */
async function askEach<T>(nodes: RedisNode[], ask: (client: Redis) => Promise<T>): Promise<T[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const client = new Redis(node.port, '127.0.0.1');
      try {
        return await ask(client);
      } finally {
        client.disconnect();
      }
    }),
  );
}

describe('two gateway processes over a Redis Cluster of three masters', () => {
  let upstream: ReferenceUpstream;
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let gateways: GatewayProcess[] = [];
  const streams: Subscription[] = [];
  const callsOf = (key: string) => upstream.requests.filter((r) => r.authorization === `Bearer ${key}`);

  /** Subscribers of the poller's sharded channel, on whichever master holds its slot. */
  async function shardListeners(): Promise<number> {
    const counts = await askEach(cluster.nodes, async (client) => {
      const channels = (await client.call('PUBSUB', 'SHARDCHANNELS', 'gateway:activity:*')) as string[];
      if (channels.length === 0) return 0;
      const numsub = (await client.call('PUBSUB', 'SHARDNUMSUB', channels[0]!)) as unknown[];
      return Number(numsub[1]);
    });
    return counts.reduce((sum, n) => sum + n, 0);
  }

  beforeAll(async () => {
    [upstream, cluster] = await Promise.all([
      startReferenceUpstream({ dialect: 'spec' }),
      startRedisCluster(3),
    ]);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${cluster.nodes[1]!.port}`,
      REDIS_CLUSTER: 'true',
      ACTIVITY_POLL_MS: String(POLL_MS),
      UPSTREAM_BUDGET_PER_MINUTE: String(BUDGET),
      REQUEST_DEADLINE_MS: '1500',
    };
    gateways = await Promise.all([0, 1].map(() => startGatewayProcess(upstream.url, env)));
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.dispose();
    await Promise.all(gateways.map((g) => g.stop()));
    await Promise.all([cluster?.stop(), upstream?.close()]);
  });

  it(`puts at most the key's ${BUDGET} a minute of 60 calls through both processes upstream`, async () => {
    const key = 'phx_plugin_rw';
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => gql(gateways[i % 2]!, ONE_CONFIG, key)),
    );
    expect(callsOf(key).length).toBeLessThanOrEqual(BUDGET);
    expect(answers.filter((a) => a.data?.project).length).toBeGreaterThan(0);
    for (const answer of answers.filter((a) => !a.data?.project))
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', budget: true });
    // The key's counts are in the cluster, on the master of the `{budget}` slot.
    const counted = await askEach(cluster.nodes, (client) => client.keys('gateway:{budget}:*'));
    expect(counted.filter((keys) => keys.length > 0)).toHaveLength(1);
  }, 60_000);

  it('a 429 with Retry-After on one process pauses the key on the other, through a sharded channel', async () => {
    const [a, b] = gateways as [GatewayProcess, GatewayProcess];
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
          headers: { 'retry-after': '3' },
          body: { detail: 'slow down' },
        },
      }),
    });
    expect((await gql(a, ONE_CONFIG, key)).errors?.[0].extensions.code).toBe('RATE_LIMITED');
    await until(
      async () => (await gql(b, ONE_CONFIG, key)).errors?.[0]?.extensions.code === 'RATE_LIMITED',
      'the pause heard on the other process',
      { withinMs: 10_000, everyMs: 50 },
    );
    const before = callsOf(key).length;
    expect((await gql(b, ONE_CONFIG, key)).errors?.[0].extensions.code).toBe('RATE_LIMITED');
    expect(callsOf(key).length).toBe(before);
    const served = async () =>
      Boolean((await gql(b, ONE_CONFIG, key)).data?.project?.destinationConfig?.name);
    await until(served, 'the pause over', {
      withinMs: 30_000,
      everyMs: 250,
    });
  }, 60_000);

  it('polls once an interval for the subscribers of both, and each gets each entry once', async () => {
    streams.push(subscribe(asHarness(gateways[0]!), 'sse', 'phx_full', ACTIVITY));
    await until(() => upstream.requests.some((r) => r.path === LOG && r.status !== null), 'a poll answered', {
      withinMs: 30_000,
    });
    streams.push(subscribe(asHarness(gateways[1]!), 'sse', 'phx_full', ACTIVITY));
    await until(async () => (await shardListeners()) >= 2, 'both processes on the sharded channel', {
      withinMs: 30_000,
      everyMs: 100,
    });
    expect(await shardListeners()).toBe(2);
    upstream.clearRequests();
    const polled = () => upstream.requests.filter((r) => r.path === LOG).map((r) => r.start);
    await until(() => polled().length >= 4, 'four polls', { withinMs: 30_000 });
    const polls = polled();
    // One poller: each poll an interval (at least) after the last; two would make two a round.
    for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThan(POLL_MS / 2);
    const made = Array.from(
      { length: 20 },
      (_, n) => pushEntry(upstream.store, 'FeatureFlag', String(n)).item_id!,
    );
    for (const s of streams) expect(await takeItemIds(s, 20, 30_000)).toEqual(made);
  }, 120_000);
});
