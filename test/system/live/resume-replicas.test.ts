// A reconnecting client lands on another replica: two gateway processes share a Redis (one
// poller for the key across them, its lease held by whichever polled first), another subscriber
// keeps that poller going on the first, and the documented feed (examples/activity-feed-*.ts)
// reconnects, alternately to each process, with `after` during a burst: every entry arrives
// once, in order, over SSE and WebSocket.

import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sseFeed from '../../../examples/activity-feed-sse.ts';
import * as wsFeed from '../../../examples/activity-feed-ws.ts';
import { type Subscription, subscribe, type Transport } from '../../support/clients.ts';
import type { Harness } from '../../support/harness.ts';
import { type GatewayProcess, RedisServer, startGatewayProcess } from '../../support/redis-server.ts';
import { settle } from '../../support/wait.ts';

const FEEDS = { sse: sseFeed, ws: wsFeed };

describe('a resumed feed across replicas sharing a Redis', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let gateways: GatewayProcess[];
  let keeper: Subscription;

  const push = (itemId: string) =>
    upstream.store.pushActivity({
      projectId: 1,
      userId: 1,
      is_system: false,
      activity: 'updated',
      scope: 'Replica',
      item_id: itemId,
      detail: null,
      createdAtMicros: upstream.store.nowMicros(),
    });

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([startReferenceUpstream({ dialect: 'spec' }), RedisServer.start()]);
    gateways = await Promise.all(
      [0, 1].map(() => startGatewayProcess(upstream.url, { REDIS_URL: redis.url, ACTIVITY_POLL_MS: '100' })),
    );
    // Holds the key's shared poller open on the first process throughout.
    const first = gateways[0]!;
    keeper = subscribe(
      { url: first.url, wsUrl: first.url.replace('http', 'ws') } as Harness,
      'sse',
      'phx_full',
      'subscription { activityAdded(projectId: "1") { id } }',
    );
    void keeper.next();
  }, 60_000);
  afterAll(async () => {
    keeper?.dispose();
    await Promise.all((gateways ?? []).map((g) => g.stop()));
    await redis?.stop();
    await upstream?.close();
  });

  it.each<Transport>([
    'sse',
    'ws',
  ])('over %s, during a burst: nothing lost, nothing doubled', async (transport) => {
    const start = push(`${transport} start`);
    let burstOver = false;
    const burst = (async () => {
      for (let n = 0; n < 200; n++) {
        push(`${transport} ${n}`);
        await settle(8);
      }
      burstOver = true;
    })();
    const expected = () => {
      const all = upstream.store.activity.filter((e) => e.projectId === 1);
      return all.slice(all.indexOf(start) + 1).map((e) => e.id);
    };
    const received: string[] = [];
    const errors: string[] = [];
    let after: string | null = start.id;
    let sessions = 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(burstOver && received.length >= expected().length)) {
      const gateway = gateways[sessions++ % 2]!;
      const cut = new AbortController();
      const target = received.length + 30;
      const watch = setInterval(() => burstOver && received.length >= expected().length && cut.abort(), 20);
      after = await FEEDS[transport].followActivity({
        url: transport === 'sse' ? gateway.url : gateway.url.replace('http', 'ws'),
        key: 'phx_full',
        projectId: '1',
        after,
        signal: cut.signal,
        onEntry: (entry) => {
          received.push(entry.id);
          if (received.length >= target) cut.abort();
        },
        onError: (message) => errors.push(message),
      });
      clearInterval(watch);
      await settle(20);
    }
    await burst;
    expect(errors).toEqual([]);
    expect(sessions).toBeGreaterThanOrEqual(4);
    expect(received).toEqual(expected());
  }, 60_000);
});
