// N subscribers of one key spread over processes, with MAX_SUBSCRIPTIONS_PER_KEY = N: over
// WORKERS=2 without Redis (the cap and the poller's lease counted by the primary), and over two
// replicas sharing a Redis (the subscribers opened on each in turn). The cap is the fleet's, not
// each process's: the N are held however the connections are split, and the N+1th is refused with
// QUERY_TOO_COMPLEX; one activity poller reads the log for all (each poll an interval after the
// last); and an entry pushed upstream reaches every subscriber once (after warm-up entries: a
// stream's headers may come before it has joined the poller).
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEntry, untilEveryStreamHears } from '../support/activity-entries.ts';
import { rawSse } from '../support/clients.ts';
import { asHarness, type GatewayProcess, RedisServer, startGatewayProcess } from '../support/redis-server.ts';
import { until } from '../support/wait.ts';

const N = 200;
const POLL_MS = 500;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';

const itemIdsOf = (stream: ReturnType<typeof rawSse>) =>
  stream.events.map(
    (e) => (JSON.parse(e) as { data?: { activityAdded: { itemId: string } } }).data?.activityAdded.itemId,
  );
const codeOf = (stream: ReturnType<typeof rawSse>) =>
  stream.events.map(
    (e) =>
      (JSON.parse(e) as { errors?: { extensions: { code: string; measure?: string } }[] }).errors?.[0]
        ?.extensions,
  );

const FLEETS = [
  { name: 'WORKERS=2 without Redis', replicas: 1, redis: false },
  { name: 'two replicas sharing a Redis', replicas: 2, redis: true },
];

describe.each(FLEETS)('$name', ({ replicas, redis: withRedis }) => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer | undefined;
  let gateways: GatewayProcess[] = [];
  const streams: ReturnType<typeof rawSse>[] = [];

  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'spec' });
    redis = withRedis ? await RedisServer.start() : undefined;
    const env = {
      ACTIVITY_POLL_MS: String(POLL_MS),
      MAX_SUBSCRIPTIONS_PER_KEY: String(N),
      ...(redis ? { REDIS_URL: redis.url } : { WORKERS: '2' }),
    };
    gateways = await Promise.all(
      Array.from({ length: replicas }, () => startGatewayProcess(upstream.url, env)),
    );
  }, 60_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all(gateways.map((g) => g.stop()));
    await redis?.stop();
    await upstream?.close();
  });

  /** A subscriber, on each process in turn (WORKERS: the primary spreads them). */
  const open = () => {
    const stream = rawSse(asHarness(gateways[streams.length % gateways.length]!), 'phx_full', ACTIVITY, {});
    streams.push(stream);
    return stream;
  };

  it(`holds ${N} subscribers of one key across the processes, refuses the next, and polls once for all`, {
    timeout: 120_000,
  }, async () => {
    for (let opened = 0; opened < N; opened += 50) {
      await Promise.all(Array.from({ length: 50 }, () => open().ready));
    }
    const held = streams.slice(0, N);
    // Every stream is live (its slot taken, its poller joined) once an entry has reached it.
    await untilEveryStreamHears(upstream.store, 'FeatureFlag', held);

    const over = open();
    await over.ready;
    await until(() => over.events.length >= 1, 'the subscriber over the cap was answered');
    expect(codeOf(over)).toEqual([
      expect.objectContaining({ code: 'QUERY_TOO_COMPLEX', measure: 'subscriptions' }),
    ]);

    // One poller for both workers: each poll an interval (at least) after the last; two would poll
    // at their own phases, moments apart.
    upstream.clearRequests();
    const polled = () => upstream.requests.filter((r) => r.path === LOG).map((r) => r.start);
    await until(() => polled().length >= 5, 'five polls', { withinMs: 30_000 });
    const polls = polled();
    for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThan(POLL_MS / 2);

    // An entry pushed upstream reaches each subscriber once.
    const entry = pushEntry(upstream.store, 'FeatureFlag', 'pushed').item_id!;
    await until(() => held.every((s) => itemIdsOf(s).includes(entry)), 'every subscriber had the entry', {
      withinMs: 60_000,
    });
    const after = polled().length;
    await until(() => polled().length >= after + 2, 'two more polls', { withinMs: 30_000 });
    for (const s of held) expect(itemIdsOf(s).filter((id) => id === entry)).toHaveLength(1);
  });
});
