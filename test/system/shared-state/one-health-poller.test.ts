// One destination health poller per key and arguments across two gateway processes sharing one
// Redis (the activity feed's sharing, shared-state/shared-polling.ts): from the upstream's
// request log, one poll per interval however many processes hold subscribers; a function the
// hog watcher degrades reaches the subscribers of both processes once.
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Subscription, subscribe } from '../../support/clients.ts';
import {
  asHarness,
  type GatewayProcess,
  RedisServer,
  startGatewayProcess,
} from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const POLL_MS = 400;
const HEALTH = `subscription { destinationHealthChanged(projectId: "1", kinds: [HOG_FUNCTION]) {
  kind old { state } new { state } destination { ... on HogFunction { uuid } }
} }`;
const LIST = '/api/projects/1/hog_functions/';

describe('one destination health poller across two processes', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let gateways: GatewayProcess[];
  const streams: Subscription[] = [];

  const polls = () => upstream.requests.filter((r) => r.path === LIST && r.status !== null);

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([
      startReferenceUpstream({ dialect: 'posthog-2026' }),
      RedisServer.start(),
    ]);
    gateways = await Promise.all(
      [0, 1].map(() =>
        startGatewayProcess(upstream.url, {
          REDIS_URL: redis.url,
          DESTINATION_HEALTH_POLL_MS: String(POLL_MS),
        }),
      ),
    );
    streams.push(...gateways.map((g) => subscribe(asHarness(g), 'sse', 'phx_full', HEALTH)));
  }, 60_000);
  afterAll(async () => {
    for (const s of streams) s.dispose();
    await Promise.all(gateways.map((g) => g.stop()));
    await redis.stop();
    await upstream.close();
  });

  it('polls once an interval for both processes, and each gets the change once', async () => {
    const next = streams.map((s) => s.next());
    await until(() => polls().length >= 2, 'two polls', { withinMs: 20_000 });
    upstream.clearRequests();
    await until(() => polls().length >= 4, 'four polls', { withinMs: 20_000 });
    const starts = polls().map((r) => r.start);
    // One poller: each poll an interval (at least) after the last; two would poll moments apart.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThan(POLL_MS / 2);

    const fn = [...upstream.store.hogFunctions.values()].find(
      (f) => f.projectId === 1 && f.enabled && !f.deleted && f.type === 'destination',
    )!;
    fn.statusState = 2;
    for (const event of await Promise.all(next)) {
      expect(event.value.errors).toBeUndefined();
      expect(event.value.data.destinationHealthChanged).toEqual({
        kind: 'HOG_FUNCTION',
        old: { state: 'HEALTHY' },
        new: { state: 'DEGRADED' },
        destination: { uuid: fn.id },
      });
    }
    // Once: the next poll finds nothing new for either.
    const seen = polls().length;
    await until(() => polls().length >= seen + 2, 'two more polls', { withinMs: 20_000 });
    const more = await Promise.race([
      Promise.all(streams.map((s) => s.next())).then(() => 'event'),
      new Promise((resolve) => setTimeout(() => resolve('nothing'), POLL_MS)),
    ]);
    expect(more).toBe('nothing');
  }, 60_000);
});
