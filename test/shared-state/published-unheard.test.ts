// The lease holder's message published, but its answer lost: Redis ran the transaction that
// stores the position and publishes what a poll found, and the connection went before its
// answer came back (here dropped, then the connection remade after SILENT_REDIS_MS). The holder
// cannot tell that from a transaction that never ran. Either way no entry is lost or repeated,
// in any process: the poll after is read on from the position Redis kept, not from before the
// message (which, published again under the same number, every process would take for one it
// has had, and drop with the entries found since).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../../src/reference-upstream/server.ts';
import { SILENT_REDIS_MS } from '../../src/shared-state/redis.ts';
import { pushEntry } from '../activity-entries.ts';
import type { Harness } from '../harness.ts';
import { type Subscription, subscribe, takeItemIds } from '../live/clients.ts';
import { type GatewayProcess, RedisServer, RedisTap, startGatewayProcess } from './processes.ts';

// Its lease (three polls) outlasts the failed publish (SILENT_REDIS_MS) and the poll after: the
// holder stays the holder, and polls again while the lease it had is still its own.
const POLL_MS = 1_500;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';
/** The poller's transaction: the position it stores, and its message. */
const POLLER_TRANSACTION = [/position:/, /PUBLISH/i];
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the lease holder's message published, its answer lost", () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let tap: RedisTap;
  /** The lease holder, through the tap; the other process, straight to Redis. */
  let holder: GatewayProcess;
  let other: GatewayProcess;
  let streams: Subscription[];
  let next = 0;

  const push = () => pushEntry(upstream.store, 'FeatureFlag', String(next++)).item_id!;
  const answeredPolls = () => upstream.requests.filter((r) => r.path === LOG && r.status !== null).length;
  async function pollsAfter(from: number, count: number) {
    for (let i = 0; i < 500 && answeredPolls() < from + count; i++) await settle(20);
    return answeredPolls() - from;
  }
  const open = (gateway: GatewayProcess) =>
    subscribe(
      { url: gateway.url, wsUrl: gateway.url.replace('http', 'ws') } as Harness,
      'sse',
      'phx_full',
      ACTIVITY,
    );

  /** Three entries, the first published with its answer lost, the second written meanwhile. */
  async function threeAcrossALostAnswer(alsoUnheard: boolean): Promise<string[]> {
    const dropped = tap.dropReplyToTransaction(...POLLER_TRANSACTION);
    tap.muteSubscribers(alsoUnheard);
    const items = [push()];
    await dropped;
    items.push(push());
    // The connection is remade (SILENT_REDIS_MS), and the poller polls again after it.
    const polled = answeredPolls();
    await settle(SILENT_REDIS_MS + 500);
    expect(await pollsAfter(polled, 2)).toBeGreaterThanOrEqual(2);
    tap.muteSubscribers(false);
    items.push(push());
    return items;
  }

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    tap = await RedisTap.start(redis.port);
    const env = { ACTIVITY_POLL_MS: String(POLL_MS) };
    holder = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: tap.url });
    streams = [open(holder)];
    expect(await pollsAfter(0, 1)).toBeGreaterThanOrEqual(1);
    other = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: redis.url });
    streams.push(open(other));
    await settle(3 * POLL_MS);
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams ?? []) stream.dispose();
    await holder?.stop();
    await other?.stop();
    await tap?.close();
    await redis?.stop();
    await upstream?.close();
  });

  it('loses nothing when the message came back but its answer did not', async () => {
    const written = await threeAcrossALostAnswer(false);
    expect(await takeItemIds(streams[0]!, 3, 5_000)).toEqual(written);
    expect(await takeItemIds(streams[1]!, 3, 5_000)).toEqual(written);
  }, 60_000);

  it('loses nothing when neither came back to the holder', async () => {
    const written = await threeAcrossALostAnswer(true);
    expect(await takeItemIds(streams[0]!, 3, 5_000)).toEqual(written);
    expect(await takeItemIds(streams[1]!, 3, 5_000)).toEqual(written);
  }, 60_000);
});
