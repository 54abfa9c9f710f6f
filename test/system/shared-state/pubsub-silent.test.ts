// A pub/sub connection gone silent: a NAT or a load balancer between a gateway and Redis forgot
// it while it sat idle, so nothing crosses it and neither end is told.
// Idle, it sends nothing, so nothing timed it: the process went on taking it for subscribed
// until TCP's keep-alive gave up on it, minutes later, and its subscribers heard nothing more
// of what another process's poller found.
// Pinged with the presence beat, it is timed as the commands connection is (3 s), found silent,
// made again and subscribed again, and the subscribers hear the poller's findings again.
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import {
  asHarness,
  type GatewayProcess,
  RedisServer,
  RedisTap,
  startGatewayProcess,
} from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const POLL_MS = 300;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';
/** Without the ping, no entry reached the silenced process's subscriber within this. */
const BOUND_MS = 15_000;

describe('a pub/sub connection gone silent', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let tap: RedisTap;
  let holder: GatewayProcess;
  let listener: GatewayProcess;
  let holderStream: Subscription;
  let listenerStream: Subscription;
  let next = 0;

  const push = () => pushEntry(upstream.store, 'FeatureFlag', String(next++)).item_id!;
  /** Which process holds the poller's lease (its process id), from Redis itself. */
  async function leaseHolder(): Promise<string | null> {
    const client = new Redis(redis.url);
    try {
      const [lease] = await client.keys('gateway:lease:*');
      return lease ? await client.get(lease) : null;
    } finally {
      client.disconnect();
    }
  }
  let holderId: string | null = null;

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    tap = await RedisTap.start(redis.port);
    const env = { ACTIVITY_POLL_MS: String(POLL_MS) };
    holder = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: redis.url });
    // The first subscriber's process polls first, and holds the lease from then on (each poll
    // renews it) while the other process starts.
    holderStream = subscribe(asHarness(holder), 'sse', 'phx_full', ACTIVITY);
    await until(() => upstream.requests.some((r) => r.path === LOG && r.status !== null), 'a poll answered');
    holderId = await leaseHolder();
    expect(holderId).not.toBeNull();
    // Only this one's connections cross the tap.
    listener = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: tap.url });
    listenerStream = subscribe(asHarness(listener), 'sse', 'phx_full', ACTIVITY);
    await settle(POLL_MS * 2);
  }, 60_000);
  afterAll(async () => {
    holderStream?.dispose();
    listenerStream?.dispose();
    await Promise.all([holder?.stop(), listener?.stop()]);
    await tap?.close();
    await redis?.stop();
    await upstream?.close();
  });

  it("hears another process's findings through Redis", async () => {
    const entry = push();
    expect(await takeItemIds(listenerStream, 1)).toEqual([entry]);
    expect(await takeItemIds(holderStream, 1)).toEqual([entry]);
  }, 30_000);

  it('is found silent and made again, and hears them again', async () => {
    // Every item id the listener's stream delivers from now on, as it comes.
    const heard: string[] = [];
    void (async () => {
      for (;;) {
        const step = await listenerStream.next();
        if (step.done) return;
        heard.push(
          step.value.errors
            ? `errors: ${JSON.stringify(step.value.errors)}`
            : step.value.data.activityAdded.itemId,
        );
      }
    })().catch(() => undefined);
    tap.silenceSubscriberConnections();
    // What is published while the connection is silent is lost to it (Redis's pub/sub keeps no
    // message for a subscriber that is not there): an entry every half second, until one comes.
    const pushed: string[] = [];
    for (let waited = 0; waited < BOUND_MS && heard.length === 0; waited += 500) {
      pushed.push(push());
      await settle(500);
    }
    expect(heard.length).toBeGreaterThan(0);
    // From then on, each entry once, in order.
    const after = [push(), push()];
    await until(() => after.every((id) => heard.includes(id)), 'after.every((id) => heard.includes(id))');
    expect(heard.slice(-2)).toEqual(after);
    expect(new Set(heard).size).toBe(heard.length);
    expect(heard.filter((id) => ![...pushed, ...after].includes(id))).toEqual([]);
    // Heard through Redis, from the process that polled all along: not by polling itself.
    expect(await leaseHolder()).toBe(holderId);
  }, 40_000);
});
