// One activity poller per key and arguments across three gateway processes sharing one Redis:
// from the upstream's request log, one poll per interval however many processes hold
// subscribers; each entry reaches the subscribers of every process once, in order; the lease
// holder killed mid-burst loses no entry for the others (another takes the lease over and goes on
// from the kept position); and Redis stopped mid-run holds the streams open, then delivers what
// came meanwhile, once, when it is back.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import {
  asHarness,
  type GatewayProcess,
  RedisServer,
  startGatewayProcess,
} from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const POLL_MS = 400;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { activity itemId } }';
const LOG = '/api/projects/1/activity_log/';

describe('one activity poller across three processes', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let gateways: GatewayProcess[];
  const streams: Subscription[] = [];
  let next = 0;

  /** Entries of the subscription's scope, straight into the upstream (no gateway wakes anyone). */
  function burst(count: number): string[] {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const entry = pushEntry(upstream.store, 'FeatureFlag', String(next++));
      ids.push(entry.item_id!);
    }
    return ids;
  }

  /** How many processes listen on the poller's channel. */
  async function listeners(): Promise<number> {
    const client = new Redis(redis.url);
    try {
      const channels = await client.pubsub('CHANNELS', 'gateway:activity:*');
      if (channels.length === 0) return 0;
      const counts = (await client.pubsub('NUMSUB', channels[0] as string)) as unknown[];
      return Number(counts[1]);
    } finally {
      client.disconnect();
    }
  }

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    gateways = await Promise.all(
      [0, 1, 2].map(() =>
        startGatewayProcess(upstream.url, { REDIS_URL: redis.url, ACTIVITY_POLL_MS: String(POLL_MS) }),
      ),
    );
    // The first subscriber's process polls first, and holds the lease.
    streams.push(subscribe(asHarness(gateways[0]!), 'sse', 'phx_full', ACTIVITY));
    await until(() => upstream.requests.some((r) => r.path === LOG && r.status !== null), 'a poll answered');
    streams.push(...gateways.slice(1).map((g) => subscribe(asHarness(g), 'sse', 'phx_full', ACTIVITY)));
    await until(async () => (await listeners()) >= 3, '(await listeners()) >= 3');
  }, 60_000);
  afterAll(async () => {
    for (const s of streams) s.dispose();
    await Promise.all(gateways.map((g) => g.stop()));
    await redis.stop();
    await upstream.close();
  });

  it('polls once an interval for the subscribers of three processes, and each gets each entry', async () => {
    expect(await listeners()).toBe(3);
    upstream.clearRequests();
    const polled = () => upstream.requests.filter((r) => r.path === LOG).map((r) => r.start);
    await until(() => polled().length >= 4, 'four polls', { withinMs: 20_000 });
    const polls = polled();
    // One poller: each poll an interval (at least) after the last. Three would make three a
    // round, moments apart.
    for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThan(POLL_MS / 2);

    const made = burst(3);
    for (const s of streams) expect(await takeItemIds(s, 3, 15_000)).toEqual(made);
  }, 30_000);

  it('the lease holder killed mid-burst: the others get every entry once, in order', async () => {
    const survivors = streams.slice(1);
    const first = burst(150);
    // The holder has published part of it.
    const early = await Promise.all(survivors.map((s) => takeItemIds(s, 50, 15_000)));
    for (const got of early) expect(got).toEqual(first.slice(0, 50));
    gateways[0]!.child.kill('SIGKILL');
    const second = burst(150);
    for (const s of survivors)
      expect(await takeItemIds(s, 250, 15_000)).toEqual([...first.slice(50), ...second]);
  }, 60_000);

  it('Redis stopped mid-run: streams stay open; what came meanwhile arrives once when it is back', async () => {
    const survivors = streams.slice(1);
    await redis.stop();
    const meanwhile = burst(5);
    await settle(POLL_MS * 3);
    await redis.resume();
    for (const s of survivors) expect(await takeItemIds(s, 5, 15_000)).toEqual(meanwhile);
    // And nothing twice: the next entry is the next one delivered.
    const after = burst(1);
    for (const s of survivors) expect(await takeItemIds(s, 1, 15_000)).toEqual(after);
  }, 60_000);
});
