// WORKERS=2 without Redis, a worker killed: the primary gives back the slots it held (the key's
// cap counts the subscribers left, and new ones take the freed slots, no more), and the activity
// poller goes on for the other worker's subscribers, whichever worker held its lease. Each new
// stream first hears warm-up entries: its headers may come before it has joined the poller.
import { readFileSync } from 'node:fs';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pushEntry, untilEveryStreamHears } from '../support/activity-entries.ts';
import { rawSse } from '../support/clients.ts';
import { asHarness, type GatewayProcess, startGatewayProcess } from '../support/redis-server.ts';
import { settle, until } from '../support/wait.ts';

const CAP = 6;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';

let upstream: ReferenceUpstream;
let gateway: GatewayProcess;
const streams: ReturnType<typeof rawSse>[] = [];

beforeAll(async () => {
  upstream = await startReferenceUpstream({ dialect: 'spec' });
  gateway = await startGatewayProcess(upstream.url, {
    WORKERS: '2',
    ACTIVITY_POLL_MS: '500',
    MAX_SUBSCRIPTIONS_PER_KEY: String(CAP),
  });
}, 60_000);
afterAll(async () => {
  for (const s of streams) s.close();
  await gateway?.stop();
  await upstream?.close();
});

const open = async () => {
  const stream = rawSse(asHarness(gateway), 'phx_full', ACTIVITY, {});
  streams.push(stream);
  await stream.ready;
  return stream;
};
const parsed = (stream: ReturnType<typeof rawSse>) =>
  stream.events.map(
    (e) =>
      JSON.parse(e) as {
        data?: { activityAdded: { itemId: string } };
        errors?: { extensions: { code: string } }[];
      },
  );
const itemIdsOf = (stream: ReturnType<typeof rawSse>) =>
  parsed(stream).map((e) => e.data?.activityAdded.itemId ?? e.errors?.[0]?.extensions.code);
const workers = () =>
  readFileSync(`/proc/${gateway.child.pid}/task/${gateway.child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);

it('a worker killed gives its slots back, and the poller goes on for the other', {
  timeout: 120_000,
}, async () => {
  const first = await Promise.all(Array.from({ length: CAP }, open));
  await untilEveryStreamHears(upstream.store, 'FeatureFlag', first);
  const a = pushEntry(upstream.store, 'FeatureFlag', 'a').item_id!;
  await until(() => first.every((s) => itemIdsOf(s).includes(a)), 'every subscriber had a', {
    withinMs: 30_000,
  });

  process.kill(workers()[0]!, 'SIGKILL');
  await until(() => first.some((s) => s.ended), 'the killed worker’s streams ended');
  // The rest of its streams end with it, moments apart.
  await settle(1_000);
  const lost = first.filter((s) => s.ended);
  const survivors = first.filter((s) => !s.ended);
  // The primary spreads connections over both workers: each held some.
  expect(lost.length).toBeGreaterThan(0);
  expect(survivors.length).toBeGreaterThan(0);

  // The freed slots are taken again (on the survivor or the replacement), and no more than those.
  const again = await Promise.all(lost.map(open));
  await untilEveryStreamHears(upstream.store, 'FeatureFlag', again);
  const b = pushEntry(upstream.store, 'FeatureFlag', 'b').item_id!;
  await until(() => [...survivors, ...again].every((s) => itemIdsOf(s).includes(b)), 'b everywhere', {
    withinMs: 30_000,
  });
  // Each had each entry once, in order: a, then b for the survivors.
  for (const s of [...survivors, ...again]) expect(itemIdsOf(s).filter((id) => id === b)).toHaveLength(1);
  for (const s of survivors) expect(itemIdsOf(s).filter((id) => id === a || id === b)).toEqual([a, b]);
  const over = await open();
  await until(() => over.events.length >= 1, 'the subscriber over the cap was answered');
  expect(itemIdsOf(over)).toEqual(['QUERY_TOO_COMPLEX']);
});
