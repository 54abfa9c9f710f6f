// The lease holder's message published, but its answer lost: Redis ran the transaction that
// stores the position and publishes what a poll found (or never ran it), and the connection went
// before its answer came back (here dropped, then the connection remade after SILENT_REDIS_MS).
// The holder cannot tell which. Either way no entry is lost, in any process: the poll after is
// read on from the position Redis kept, not from before the message (which, published again
// under the same number, every process would take for one it has had, and drop with the entries
// found since).
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SILENT_REDIS_MS } from '../../../src/shared-state/silent-redis.ts';
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

const activity = (scope: string) =>
  `subscription { activityAdded(projectId: "1", scope: "${scope}") { itemId } }`;
const LOG = '/api/projects/1/activity_log/';
/** The poller's transaction: the position it stores, and its message. */
const POLLER_TRANSACTION = [/position:/, /PUBLISH/i];

/**
 * Two gateway processes sharing a Redis, with subscribers of one poller in each: the lease
 * holder through a tap, the other straight to Redis.
 */
function twoProcesses(pollMs: number) {
  const at = {} as {
    upstream: ReferenceUpstream;
    redis: RedisServer;
    tap: RedisTap;
    holder: GatewayProcess;
    other: GatewayProcess;
    streams: Subscription[];
  };
  let next = 0;
  const push = (scope = 'FeatureFlag') => pushEntry(at.upstream.store, scope, String(next++)).item_id!;
  const answeredPolls = () => at.upstream.requests.filter((r) => r.path === LOG && r.status !== null).length;
  async function pollsAfter(from: number, count: number) {
    await until(() => answeredPolls() >= from + count, 'answeredPolls() >= from + count', {
      withinMs: 20_000,
    });
    return answeredPolls() - from;
  }
  const open = (gateway: GatewayProcess, scope = 'FeatureFlag') =>
    subscribe(
      { url: gateway.url, wsUrl: gateway.url.replace('http', 'ws') } as Harness,
      'sse',
      'phx_full',
      activity(scope),
    );

  beforeAll(async () => {
    [at.upstream, at.redis] = await Promise.all([
      startReferenceUpstream({ dialect: 'spec' }),
      RedisServer.start(),
    ]);
    at.tap = await RedisTap.start(at.redis.port);
    const env = { ACTIVITY_POLL_MS: String(pollMs) };
    at.holder = await startGatewayProcess(at.upstream.url, { ...env, REDIS_URL: at.tap.url });
    at.streams = [open(at.holder)];
    expect(await pollsAfter(0, 1)).toBeGreaterThanOrEqual(1);
    at.other = await startGatewayProcess(at.upstream.url, { ...env, REDIS_URL: at.redis.url });
    at.streams.push(open(at.other));
    await settle(3 * pollMs);
  }, 60_000);
  afterAll(async () => {
    for (const stream of at.streams ?? []) stream.dispose();
    await at.holder?.stop();
    await at.other?.stop();
    await at.tap?.close();
    await at.redis?.stop();
    await at.upstream?.close();
  });
  return { at, push, answeredPolls, pollsAfter, open };
}

describe("the lease holder's message published, its answer lost, the lease kept", () => {
  // Its lease (three polls) outlasts the failed publish (SILENT_REDIS_MS) and the poll after: the
  // holder stays the holder, and polls again while the lease it had is still its own.
  const { at, push, answeredPolls, pollsAfter, open } = twoProcesses(2_000);

  /** Three entries, the first published with its answer lost, the second written meanwhile. */
  async function threeAcrossALostAnswer(alsoUnheard: boolean): Promise<string[]> {
    const dropped = at.tap.dropReplyToTransaction(POLLER_TRANSACTION);
    at.tap.muteSubscribers(alsoUnheard);
    const items = [push()];
    await dropped;
    items.push(push());
    // The connection is remade, and the poller polls again after it.
    const polled = answeredPolls();
    await settle(SILENT_REDIS_MS + 500);
    expect(await pollsAfter(polled, 2)).toBeGreaterThanOrEqual(2);
    at.tap.muteSubscribers(false);
    items.push(push());
    return items;
  }

  it('loses nothing when the message came back but its answer did not', async () => {
    const written = await threeAcrossALostAnswer(false);
    for (const stream of at.streams) expect(await takeItemIds(stream, 3, 5_000)).toEqual(written);
  }, 60_000);

  it('loses nothing when neither came back to the holder', async () => {
    const written = await threeAcrossALostAnswer(true);
    for (const stream of at.streams) expect(await takeItemIds(stream, 3, 5_000)).toEqual(written);
  }, 60_000);

  it("loses nothing when a new poller's first message never ran", async () => {
    // A first message: the other poller's are numbered past 1 by now.
    const dropped = at.tap.dropReplyToTransaction([...POLLER_TRANSACTION, /"seq":1,/], false);
    const stream = open(at.holder, 'Insight');
    at.streams.push(stream);
    await dropped;
    // Written after the poller began, before Redis is heard again: it is read again from there.
    const written = [push('Insight')];
    await settle(SILENT_REDIS_MS + 500);
    written.push(push('Insight'));
    expect(await takeItemIds(stream, 2, 5_000)).toEqual(written);
  }, 60_000);
});

describe("the lease holder's message published, its answer lost, with a short lease", () => {
  // Three polls of 300 ms would lapse while the holder waits for its answer (SILENT_REDIS_MS);
  // the lease lasts longer than that wait, so the holder settles its message before another
  // process could poll on under the same number.
  const { at, push } = twoProcesses(300);

  /** Which process holds each poller's lease. */
  async function leaseHolders(): Promise<(string | null)[]> {
    const client = new Redis(at.redis.url);
    try {
      const keys = (await client.keys('gateway:lease:*')).sort();
      return await Promise.all(keys.map((key) => client.get(key)));
    } finally {
      client.disconnect();
    }
  }

  it('keeps its lease, and nothing is lost', async () => {
    const holders = await leaseHolders();
    expect(holders).toHaveLength(1);
    const dropped = at.tap.dropReplyToTransaction(POLLER_TRANSACTION);
    at.tap.muteSubscribers(true);
    const written = [push()];
    await dropped;
    await settle(SILENT_REDIS_MS + 500);
    at.tap.muteSubscribers(false);
    written.push(push());
    for (const stream of at.streams) expect(await takeItemIds(stream, 2, 5_000)).toEqual(written);
    expect(await leaseHolders()).toEqual(holders);
  }, 60_000);
});
