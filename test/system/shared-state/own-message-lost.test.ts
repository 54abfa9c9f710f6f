// The lease holder's own message lost on its way back: the process published what a poll found
// (its commands connection works), but its pub/sub connection did not hear it (dropped and back,
// or silent, meanwhile). Its subscribers still get those entries, and the poller goes on polling:
// it does not wait forever for a message that will never come.

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
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';

describe("the lease holder's own message lost on its way back", () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let tap: RedisTap;
  let gateway: GatewayProcess;
  let stream: Subscription;
  let next = 0;

  const push = () => pushEntry(upstream.store, 'FeatureFlag', String(next++)).item_id!;
  const answeredPolls = () => upstream.requests.filter((r) => r.path === LOG && r.status !== null).length;
  /** Waits (bounded) until the upstream has answered `count` more polls than `from`. */
  async function pollsAfter(from: number, count: number) {
    await until(() => answeredPolls() >= from + count, 'answeredPolls() >= from + count');
    return answeredPolls() - from;
  }

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    tap = await RedisTap.start(redis.port);
    gateway = await startGatewayProcess(upstream.url, {
      REDIS_URL: tap.url,
      ACTIVITY_POLL_MS: String(POLL_MS),
    });
    stream = subscribe(
      { url: gateway.url, wsUrl: gateway.url.replace('http', 'ws') } as Harness,
      'sse',
      'phx_full',
      ACTIVITY,
    );
    expect(await pollsAfter(0, 1)).toBeGreaterThanOrEqual(1);
  }, 60_000);
  afterAll(async () => {
    stream.dispose();
    await gateway.stop();
    await tap.close();
    await redis.stop();
    await upstream.close();
  });

  it('delivers the entries it found, and polls on', async () => {
    tap.muteSubscribers(true);
    const lost = push();
    // The poll that finds it, and the one after: the poller did not stop at its lost message.
    const polled = answeredPolls();
    await settle(POLL_MS);
    expect(await pollsAfter(polled, 3)).toBeGreaterThanOrEqual(3);
    tap.muteSubscribers(false);
    const after = push();
    expect(await takeItemIds(stream, 2)).toEqual([lost, after]);
  }, 60_000);
});
