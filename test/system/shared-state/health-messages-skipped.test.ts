// The destination health feed's messages a non-holder process did not hear (its pub/sub
// connection deaf meanwhile): what they carried is not read again. The next message's states are
// that process's baseline from then on (a destination's latest state supersedes the changes it
// went through meanwhile), so its subscribers get the changes after it, each once, and none of
// the changes it did not hear; the holder's subscribers get every change.
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Subscription, subscribe } from '../../support/clients.ts';
import {
  asHarness,
  type GatewayProcess,
  RedisServer,
  RedisTap,
  startGatewayProcess,
} from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

const POLL_MS = 300;
const HEALTH = `subscription { destinationHealthChanged(projectId: "1", kinds: [HOG_FUNCTION]) {
  old { state } new { state } destination { ... on HogFunction { uuid } }
} }`;
const LIST = '/api/projects/1/hog_functions/';

describe('health messages a non-holder process did not hear', () => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer;
  let tap: RedisTap;
  let holder: GatewayProcess;
  let other: GatewayProcess;
  let held: Subscription;
  let joined: Subscription;

  const polls = () => upstream.requests.filter((r) => r.path === LIST && r.status !== null).length;
  async function pollsAfter(count: number) {
    const from = polls();
    await until(() => polls() >= from + count, 'more polls', { withinMs: 20_000 });
  }

  beforeAll(async () => {
    [upstream, redis] = await Promise.all([
      startReferenceUpstream({ dialect: 'posthog-2026' }),
      RedisServer.start(),
    ]);
    tap = await RedisTap.start(redis.port);
    const env = { DESTINATION_HEALTH_POLL_MS: String(POLL_MS) };
    holder = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: redis.url });
    held = subscribe(asHarness(holder), 'sse', 'phx_full', HEALTH);
    await pollsAfter(1);
    other = await startGatewayProcess(upstream.url, { ...env, REDIS_URL: tap.url });
    joined = subscribe(asHarness(other), 'sse', 'phx_full', HEALTH);
    await settle(3 * POLL_MS);
  }, 60_000);
  afterAll(async () => {
    held?.dispose();
    joined?.dispose();
    await holder?.stop();
    await other?.stop();
    await tap?.close();
    await redis?.stop();
    await upstream?.close();
  });

  it('takes the next message as the baseline, and goes on from there', async () => {
    const fn = [...upstream.store.hogFunctions.values()].find(
      (f) => f.projectId === 1 && f.enabled && !f.deleted && f.type === 'destination',
    )!;
    const heldNext = held.next();
    const joinedNext = joined.next();
    tap.muteSubscribers(true);
    fn.statusState = 2;
    const change = (old: string, now: string) => ({
      old: { state: old },
      new: { state: now },
      destination: { uuid: fn.id },
    });
    expect((await heldNext).value.data.destinationHealthChanged).toEqual(change('HEALTHY', 'DEGRADED'));
    await pollsAfter(2);
    tap.muteSubscribers(false);
    await pollsAfter(2);
    fn.statusState = 1;
    expect((await held.next()).value.data.destinationHealthChanged).toEqual(change('DEGRADED', 'HEALTHY'));
    expect((await joinedNext).value.data.destinationHealthChanged).toEqual(change('DEGRADED', 'HEALTHY'));
  }, 60_000);
});
