// activityAdded against today's PostHog (the reference upstream's posthog-2026 dialect) follows the
// log oldest first with `ordering=created_at&follow=true` and a kept cursor, learnt from the
// upstream's answer: a burst of 1,500 entries between two polls is delivered whole, each once,
// in order — past the 1,000 (10 pages) that reading newest first can catch up. Whether an upstream
// follows is learnt right whatever the dates of the page it is learnt from.

import type { Dialect } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const ACTIVITY =
  'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { id activity itemId } }';
const LOG = '/api/projects/1/activity_log/';

describe.each<Transport>(['sse', 'ws'])('activityAdded follows today’s PostHog over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    // The poller never polls on its own: a write through the gateway wakes it after the burst.
    h = await startHarness({ dialect: 'posthog-2026', env: { ACTIVITY_POLL_MS: '600000' } });
  });
  afterAll(() => h.close());

  it('delivers a burst of 1,500 entries made between two polls, each once, oldest first, in two calls', {
    timeout: 60_000,
  }, async () => {
    const s = subscribe(h, transport, 'phx_full', ACTIVITY);
    const pending = s.next();
    await until(
      () => h.upstreamCalls({ path: LOG }).some((c) => c.status !== null),
      'the baseline poll answered',
    );
    await settle(50);
    const [baseline] = h.upstreamCalls({ path: LOG });
    expect(new URLSearchParams(baseline!.query).get('follow')).toBe('true');
    h.upstream.clearRequests();

    // The burst, straight into the upstream (no write through the gateway wakes the poller).
    const store = h.upstream.store;
    const burst: string[] = [];
    for (let n = 0; n < 1_500; n++) {
      const entry = store.pushActivity({
        projectId: 1,
        userId: 1,
        is_system: false,
        activity: 'updated',
        scope: 'FeatureFlag',
        item_id: String(n),
        detail: null,
        createdAtMicros: store.nowMicros(),
      });
      burst.push(entry.id);
    }
    // Wake it with a write of the same key (an entry of another scope).
    const { body } = await h.gql(
      'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Wake"}) { destinationConfig { name } } }',
      { id: Buffer.from('DestinationConfig:1:1').toString('base64') },
    );
    expect(body.errors).toBeUndefined();

    // biome-ignore lint/suspicious/noExplicitAny: events are inspected field by field.
    const events: any[] = [(await pending).value];
    while (events.length < 1_500) {
      const step = await Promise.race([s.next(), settle(15_000).then(() => null)]);
      if (step === null || step.done) break;
      events.push(step.value);
    }
    expect(events.every((e) => e.errors === undefined)).toBe(true);
    expect(events.map((e) => e.data.activityAdded.id)).toEqual(burst);
    // 1,000 a page after the kept cursor: two pages, no catch-up bound met.
    const polls = h.upstreamCalls({ path: LOG });
    expect(polls).toHaveLength(2);
    for (const poll of polls) expect(new URLSearchParams(poll.query).get('cursor')).not.toBeNull();
    await s.return();
    s.dispose();
    await until(() => h.live.activity.pollerCount === 0, 'h.live.activity.pollerCount === 0');
  });
});

// PostHog writes a date on a whole second without a fraction (`…:04Z`, Python's isoformat), which
// sorts after `…:04.5Z` as text: a top page whose oldest entry falls on a whole second, its newest
// in the same second, must not make an upstream that answers newest first look as if it follows
// (it would then walk back through older pages and never deliver a new entry), nor the other way.
describe.each<[Dialect, boolean]>([
  ['spec', false],
  ['posthog', false],
  ['posthog-2026', true],
])('the poller learns whether %s follows from a page within one second', (dialect, follows) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect, env: { ACTIVITY_POLL_MS: '600000' } });
  });
  afterAll(() => h.close());

  for (const transport of ['sse', 'ws'] as const) {
    it(`and delivers the next entry (${transport})`, async () => {
      h.reset();
      // A scope of its own: the poller's place in the log is kept per key, project and scope.
      const scope = `Seam${transport}`;
      const store = h.upstream.store;
      const push = (createdAtMicros: number) =>
        store.pushActivity({
          projectId: 1,
          userId: 1,
          is_system: false,
          activity: 'updated',
          scope,
          item_id: String(createdAtMicros),
          detail: null,
          createdAtMicros,
        });
      // The first poll's page, in a whole second more than a second ago (newer would be news to a
      // first poll), its oldest entry on the second itself: an
      // upstream that follows answers the scope's whole log oldest first (100 entries); one that
      // does not answers the newest 100, with a next page of older ones.
      const second = (Math.floor(Date.now() / 1000) - 2) * 1_000_000;
      if (!follows) for (let n = 0; n < 120; n++) push(second - 5_000_000 + 500_000 + n * 1_000);
      for (let n = 0; n < 100; n++) push(second + n * 1_000);
      const s = subscribe(h, transport, 'phx_full', ACTIVITY.replace('FeatureFlag', scope));
      const pending = s.next();
      for (let i = 0; i < 200 && !h.upstreamCalls({ path: LOG }).some((c) => c.status !== null); i++)
        await settle(10);
      await settle(50);
      h.upstream.clearRequests();
      const next = push(store.nowMicros());
      await h.gql(
        'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Wake"}) { destinationConfig { name } } }',
        { id: Buffer.from('DestinationConfig:1:1').toString('base64') },
      );
      const step = await Promise.race([pending, settle(5_000).then(() => null)]);
      expect(step?.value?.data?.activityAdded?.id).toBe(next.id);
      const [poll] = h.upstreamCalls({ path: LOG });
      expect(new URLSearchParams(poll!.query).has('cursor')).toBe(follows);
      await s.return();
      s.dispose();
      await until(() => h.live.activity.pollerCount === 0, 'h.live.activity.pollerCount === 0');
    });
  }
});
