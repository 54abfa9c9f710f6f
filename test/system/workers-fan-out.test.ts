// WORKERS=2 without Redis, N subscribers of one key: the per-key cap is the cluster's (counted by
// the primary), not each worker's, so the N are held across both workers and the N+1th is refused
// with QUERY_TOO_COMPLEX however the connections are split; one activity poller reads the log for
// both workers (the primary holds its lease); and an entry pushed upstream reaches every
// subscriber once (after warm-up entries: a stream's headers may come before it has joined the
// poller).
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pushEntry, untilEveryStreamHears } from '../support/activity-entries.ts';
import { rawSse } from '../support/clients.ts';
import { asHarness, type GatewayProcess, startGatewayProcess } from '../support/redis-server.ts';
import { until } from '../support/wait.ts';

const N = 200;
const POLL_MS = 500;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';

let upstream: ReferenceUpstream;
let gateway: GatewayProcess;
const streams: ReturnType<typeof rawSse>[] = [];

beforeAll(async () => {
  upstream = await startReferenceUpstream({ dialect: 'spec' });
  gateway = await startGatewayProcess(upstream.url, {
    WORKERS: '2',
    ACTIVITY_POLL_MS: String(POLL_MS),
    MAX_SUBSCRIPTIONS_PER_KEY: String(N),
  });
}, 60_000);
afterAll(async () => {
  for (const s of streams) s.close();
  await gateway?.stop();
  await upstream?.close();
});

const open = () => {
  const stream = rawSse(asHarness(gateway), 'phx_full', ACTIVITY, {});
  streams.push(stream);
  return stream;
};
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

it(`holds ${N} subscribers of one key across two workers, refuses the next, and polls once for all`, {
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
