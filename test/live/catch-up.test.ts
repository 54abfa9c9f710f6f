// activityAdded loses nothing however many entries arrive between two polls: 250 configs created
// directly in the upstream (not through the gateway, so no write wakes the poller) are all
// delivered, each once, in the upstream's order, oldest first, on both transports; past the
// catch-up bound (10 pages) the subscribers are told what was left out.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const ACTIVITY =
  'subscription { activityAdded(projectId: "1", scope: "PluginConfig") { id activity itemId } }';

/** Creates `count` configs straight in the upstream, eight requests at a time. */
async function createDirectly(h: Harness, count: number, tag: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const response = await fetch(`${h.upstream.url}/api/projects/1/pipeline_destination_configs/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
        body: JSON.stringify({ plugin: 1, order: 1000 + i, name: `${tag} ${i}` }),
      });
      expect(response.status).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Waits until the poller's first poll (its baseline) has been answered. */
async function baselined(h: Harness): Promise<void> {
  const answered = () =>
    h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).some((c) => c.status !== null);
  await until(() => answered(), 'answered()');
  // The answer is on its way to the poller: let it land before the burst begins.
  await settle(50);
}

/** A write through the gateway with the same key: it wakes the poller (and adds one entry). */
async function wake(h: Harness): Promise<void> {
  const { body } = await h.gql(
    'mutation($id: ID!) { updateDestinationConfig(input: {id: $id, name: "Wake"}) { destinationConfig { name } } }',
    { id: Buffer.from('DestinationConfig:1:1').toString('base64') },
  );
  expect(body.errors).toBeUndefined();
}

/** The upstream's own order of the PluginConfig entries, oldest first (read straight from it). */
async function upstreamOrder(h: Harness): Promise<string[]> {
  const newestFirst: string[] = [];
  let url: string | null = `${h.upstream.url}/api/projects/1/activity_log/?scope=PluginConfig`;
  while (url) {
    const page = (await (await fetch(url, { headers: { authorization: 'Bearer phx_full' } })).json()) as {
      results: { id: string }[];
      next: string | null;
    };
    newestFirst.push(...page.results.map((e) => e.id));
    url = page.next ? `${h.upstream.url}${new URL(page.next).pathname}${new URL(page.next).search}` : null;
  }
  return newestFirst.reverse();
}

describe.each<Transport>(['sse', 'ws'])('activityAdded catches up over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    // The poller never polls on its own here: a write through the gateway wakes it once the burst
    // is in the upstream, so every entry of the burst falls between two polls.
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '600000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  async function collect(s: ReturnType<typeof subscribe>, wanted: number) {
    // biome-ignore lint/suspicious/noExplicitAny: events are inspected field by field.
    const events: any[] = [];
    while (events.filter((e) => e.data).length < wanted) {
      const step = await Promise.race([s.next(), settle(15_000).then(() => null)]);
      if (step === null || step.done) break;
      events.push(step.value);
    }
    return events;
  }

  it('delivers all 250 entries made between two polls, each once, oldest first', {
    timeout: 60_000,
  }, async () => {
    const s = subscribe(h, transport, 'phx_full', ACTIVITY);
    const pending = s.next();
    await baselined(h);
    await createDirectly(h, 250, `Burst ${transport}`);
    await wake(h);
    const first = await pending;
    const events = [first.value, ...(await collect(s, 250))];
    const ids = events.map((e) => e.data.activityAdded.id);
    expect(events.every((e) => e.errors === undefined)).toBe(true);
    // The burst's 250 `created` entries and the waking write's `updated` one.
    expect(events.filter((e) => e.data.activityAdded.activity === 'created')).toHaveLength(250);
    expect(ids).toHaveLength(251);
    expect(new Set(ids).size).toBe(251);
    const order = await upstreamOrder(h);
    expect(ids).toEqual(order.filter((id) => ids.includes(id)));
    await s.return();
    s.dispose();
    // The next test's subscription must start a poller of its own, with its own baseline.
    await until(() => h.live.activity.pollerCount === 0, 'h.live.activity.pollerCount === 0');
  });

  it('past 10 pages, says what was left out, then delivers the newest 1,000 in order', {
    timeout: 60_000,
  }, async () => {
    const s = subscribe(h, transport, 'phx_full', ACTIVITY);
    const pending = s.next();
    await baselined(h);
    await createDirectly(h, 1_050, `Flood ${transport}`);
    await wake(h);
    const first = (await pending).value;
    expect(first.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'activityCatchUpPages',
    });
    const events = await collect(s, 1_000);
    const ids = events.filter((e) => e.data).map((e) => e.data.activityAdded.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(1_000);
    const order = await upstreamOrder(h);
    expect(ids).toEqual(order.filter((id) => ids.includes(id)));
    await s.return();
    s.dispose();
    // The next test's subscription must start a poller of its own, with its own baseline.
    await until(() => h.live.activity.pollerCount === 0, 'h.live.activity.pollerCount === 0');
  });
});
