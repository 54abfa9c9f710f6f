// activityAdded against today's PostHog (the reference upstream's posthog-2026 dialect) follows the
// log oldest first with `ordering=created_at&follow=true` and a kept cursor, learnt from the
// upstream's answer: a burst of 1,500 entries between two polls is delivered whole, each once,
// in order — past the 1,000 (10 pages) that reading newest first can catch up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';
import { subscribe, type Transport } from './clients.ts';

const ACTIVITY =
  'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { id activity itemId } }';
const LOG = '/api/projects/1/activity_log/';
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    for (let i = 0; i < 200 && !h.upstreamCalls({ path: LOG }).some((c) => c.status !== null); i++)
      await settle(10);
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
    for (let i = 0; i < 200 && h.live.activity.pollerCount > 0; i++) await settle(10);
  });
});
