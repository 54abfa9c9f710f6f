// A process that is not its poller's lease holder misses some of its messages (its pub/sub
// connection deaf meanwhile, as a failover's resubscription or a silent connection leaves it):
// the next message it hears is numbered past the next one, and the entries of those it missed
// are read again from the last position it handed over, then the later ones: its subscribers get
// every entry once, in order. A stream that joins while its process hears nothing (its
// subscription taken before the holder's message) starts from the position kept when it
// joined: what came after is delivered too.
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry } from '../../support/activity-entries.ts';
import { type Subscription, subscribe, takeItemIds } from '../../support/clients.ts';
import type { Harness } from '../../support/harness.ts';
import {
  type GatewayProcess,
  RedisServer,
  RedisTap,
  startGatewayProcess,
} from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const POLL_MS = 300;
const activity = (scope: string) =>
  `subscription { activityAdded(projectId: "1", scope: "${scope}") { itemId } }`;
const LOG = '/api/projects/1/activity_log/';

describe('messages a non-holder process did not hear', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let tap: RedisTap;
  let holder: GatewayProcess;
  let other: GatewayProcess;
  const streams: Subscription[] = [];
  let next = 0;
  const push = (scope = 'FeatureFlag') => pushEntry(upstream.store, scope, String(next++)).item_id!;
  const answeredPolls = () => upstream.requests.filter((r) => r.path === LOG && r.status !== null).length;
  async function pollsAfter(from: number, count: number) {
    await until(() => answeredPolls() >= from + count, 'answeredPolls() >= from + count', {
      withinMs: 20_000,
    });
    return answeredPolls() - from;
  }
  const open = (gateway: GatewayProcess, scope = 'FeatureFlag') => {
    const stream = subscribe(
      { url: gateway.url, wsUrl: gateway.url.replace('http', 'ws') } as Harness,
      'sse',
      'phx_full',
      activity(scope),
    );
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    tap = await RedisTap.start(redis.port);
    const env = { ACTIVITY_POLL_MS: String(POLL_MS) };
    // The holder straight to Redis; the other through the tap, which can mute its pub/sub.
    holder = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: redis.url });
    open(holder);
    expect(await pollsAfter(0, 1)).toBeGreaterThanOrEqual(1);
    other = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: tap.url });
    open(other);
    await settle(3 * POLL_MS);
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.dispose();
    await holder?.stop();
    await other?.stop();
    await tap?.close();
    await redis?.stop();
    await upstream?.close();
  });

  it('reads again what the skipped messages carried, then goes on', async () => {
    const before = push();
    for (const stream of streams) expect(await takeItemIds(stream, 1, 10_000)).toEqual([before]);
    tap.muteSubscribers(true);
    // Messages the other does not hear: with entries, and polls after them.
    const written = [push(), push()];
    let polled = answeredPolls();
    expect(await pollsAfter(polled, 2)).toBeGreaterThanOrEqual(2);
    written.push(push());
    polled = answeredPolls();
    expect(await pollsAfter(polled, 2)).toBeGreaterThanOrEqual(2);
    tap.muteSubscribers(false);
    written.push(push());
    for (const stream of streams) expect(await takeItemIds(stream, 4, 10_000)).toEqual(written);
    const after = push();
    for (const stream of streams) expect(await takeItemIds(stream, 1, 10_000)).toEqual([after]);
  }, 60_000);

  it('delivers what came after a stream joined, before its process heard a message', async () => {
    const held = open(holder, 'Insight');
    const first = push('Insight');
    expect(await takeItemIds(held, 1, 10_000)).toEqual([first]);
    tap.muteSubscribers(true);
    // Its subscription is taken (SUBSCRIBE passes); the messages published meanwhile are not heard.
    const joining = open(other, 'Insight');
    await settle(3 * POLL_MS);
    const written = [push('Insight')];
    const polled = answeredPolls();
    expect(await pollsAfter(polled, 2)).toBeGreaterThanOrEqual(2);
    tap.muteSubscribers(false);
    written.push(push('Insight'));
    expect(await takeItemIds(joining, 2, 10_000)).toEqual(written);
    expect(await takeItemIds(held, 2, 10_000)).toEqual(written);
  }, 60_000);
});
