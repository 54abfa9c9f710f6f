// A stream of activityAdded that cannot keep up (each entry's selection reads the upstream, and a
// burst of several pages arrives faster than those reads answer) ends, saying why and how to read
// on, once MAX_EVENTS_BEHIND entries wait for it, in every dialect; the poller it shares with the
// key's other streams goes on. Before, the stream's Repeater refused its 1,025th unread push by
// throwing inside the poller, which then never polled again: every stream of that key and
// arguments stayed open and silent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENTS_BEHIND } from '../../../src/live/activity/subscriptions.ts';
import { pushEntry } from '../../support/activity-entries.ts';
import { subscribe, type Transport } from '../../support/clients.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { settle, until } from '../../support/wait.ts';

const FAST = 'subscription { activityAdded(projectId: "1", scope: "PluginConfig") { id itemId } }';
const SLOW =
  'subscription { activityAdded(projectId: "1", scope: "PluginConfig") { id itemId destinationConfig { name } } }';
const LOG = '/api/projects/1/activity_log/';

/**
 * How each dialect's poller meets a burst, and the bursts that put the slow stream past the cap:
 * posthog-2026 follows the log 1,000 a page, and reads the rest of a burst once a page is taken
 * (or a second has passed); spec and posthog read newest first, up to 10 pages of 100 a poll, so
 * two bursts of 900, a poll each, the second once the fast stream has heard the first.
 */
const DIALECTS = [
  { dialect: 'posthog-2026', bursts: [2_100] },
  { dialect: 'spec', bursts: [900, 900] },
  { dialect: 'posthog', bursts: [900, 900] },
] as const;

describe.each(
  DIALECTS.flatMap(({ dialect, bursts }) =>
    (['sse', 'ws'] as Transport[]).map((transport) => ({ dialect, bursts, transport })),
  ),
)('a stream of activityAdded that falls behind, in $dialect over $transport', ({
  dialect,
  bursts,
  transport,
}) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect,
      env: { ACTIVITY_POLL_MS: '600000', REQUEST_DEADLINE_MS: '1000' },
    });
  });
  afterAll(() => h.close());

  it('ends with QUERY_TOO_COMPLEX (activityBacklog), and the key’s other streams hear every entry and more', {
    timeout: 90_000,
  }, async () => {
    const fast = subscribe(h, transport, 'phx_full', FAST);
    const slow = subscribe(h, transport, 'phx_full', SLOW);
    const fastNext = fast.next();
    const slowNext = slow.next();
    await until(
      () => h.upstreamCalls({ path: LOG }).filter((c) => c.status !== null).length >= 1,
      'the baseline poll',
    );
    await settle(100);
    // Each slow event reads config 3, a little late.
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/3/',
      action: { kind: 'delay', ms: 5 },
      times: 100_000,
    });
    const store = h.upstream.store;
    const push = () => pushEntry(store, 'PluginConfig', '3').id;
    const wake = () =>
      h.live.wake.written('Bearer phx_full', '/api/projects/1/pipeline_destination_configs/3/');

    // biome-ignore lint/suspicious/noExplicitAny: results are inspected field by field.
    const heard: any[] = [];
    const burst: string[] = [];
    for (const size of bursts) {
      burst.push(...Array.from({ length: size }, push));
      wake();
      while (heard.length < burst.length) {
        const step = await Promise.race([
          heard.length === 0 ? fastNext : fast.next(),
          settle(15_000).then(() => null),
        ]);
        if (step === null || step.done) break;
        heard.push(step.value);
      }
    }
    expect(heard.map((r) => r.data?.activityAdded.id)).toEqual(burst);

    // The slow stream: what it had, then the end, saying why.
    // biome-ignore lint/suspicious/noExplicitAny: results are inspected field by field.
    const slowResults: any[] = [(await slowNext).value];
    for (;;) {
      const step = await Promise.race([slow.next(), settle(30_000).then(() => null)]);
      if (step === null || step.done) break;
      slowResults.push(step.value);
    }
    const last = slowResults.at(-1);
    expect(last.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'activityBacklog',
      limit: MAX_EVENTS_BEHIND,
    });
    expect(slowResults.length).toBeLessThan(burst.length);
    expect(slowResults.slice(0, -1).map((r) => r.data.activityAdded.id)).toEqual(
      burst.slice(0, slowResults.length - 1),
    );

    // The poller goes on: the next entry reaches the fast stream.
    const next = push();
    wake();
    const after = await Promise.race([fast.next(), settle(15_000).then(() => null)]);
    expect(after?.value?.data?.activityAdded.id).toBe(next);
    await fast.return();
    fast.dispose();
    slow.dispose();
  });
});
