// A flood of activity-feed pollers on one key, with a reserve (UPSTREAM_BUDGET_RESERVE_PERCENT):
// 40 calls an hour (and a minute) with 25% held back leave 10 for the key's owner, 30 for
// interactive calls and 20 for pollers. Six subscriptions of one key (six pollers) spend their 20
// and no more; their intervals grow (gateway_live_poll_interval_seconds{class="activity"}: twice
// the setting once a third of the interactive part is left); the key's queries still get their 10; the reserve is never spent (the emulator's request log);
// /metrics shows what the key nearest its limit has left, by class, with no key in any label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Subscription, subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { parsePrometheus, total } from '../support/prometheus.ts';
import { settle, until } from '../support/wait.ts';

const KEY = 'phx_full';
const TOKEN = 'metrics-token-flood-0123456789';
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';
const feed = (itemId: number) => `subscription { activityAdded(projectId: "1", itemId: "${itemId}") { id } }`;
const PER_WINDOW = 40;
const RESERVE = 10;
const POLLERS_PART = 20;

describe('a flood of activity pollers of one key, with a reserve', () => {
  let h: Harness;
  const streams: Subscription[] = [];
  beforeAll(async () => {
    h = await startHarness({
      env: {
        // Both windows alike: the counts hold however long the test takes.
        UPSTREAM_BUDGET_PER_MINUTE: String(PER_WINDOW),
        UPSTREAM_BUDGET_PER_HOUR: String(PER_WINDOW),
        UPSTREAM_BUDGET_RESERVE_PERCENT: '25',
        ACTIVITY_POLL_MS: '100',
        REQUEST_DEADLINE_MS: '2000',
        MAX_SUBSCRIPTIONS_PER_KEY: '20',
        METRICS_TOKEN: TOKEN,
      },
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.dispose();
    await h.close();
  });

  const callsOf = (key: string) => h.upstreamCalls().filter((c) => c.authorization === `Bearer ${key}`);
  const polls = () => callsOf(KEY).filter((c) => c.path.endsWith('/activity_log/'));
  const scrape = async () => {
    const response = await fetch(h.url.replace('/graphql', '/metrics'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await response.text();
    return { text, samples: parsePrometheus(text) };
  };
  /** Activity polls that waited longer than `seconds`. */
  const slowerThan = async (seconds: string) => {
    const { samples } = await scrape();
    const name = 'gateway_live_poll_interval_seconds_bucket';
    return (
      total(samples, name, { class: 'activity', le: '+Inf' }) -
      total(samples, name, { class: 'activity', le: seconds })
    );
  };
  const fewest = async (kind: string) =>
    total((await scrape()).samples, 'gateway_upstream_budget_remaining_fewest', {
      window: 'hour',
      class: kind,
    });

  it('before any call, /metrics shows each class its whole part', async () => {
    expect(await fewest('interactive')).toBe(PER_WINDOW - RESERVE);
    expect(await fewest('poller')).toBe(POLLERS_PART);
  });

  it('pollers spend their part and slow down; queries still succeed; the reserve is never spent', async () => {
    for (let i = 0; i < 6; i++) {
      const stream = subscribe(h, i % 2 ? 'ws' : 'sse', KEY, feed(i + 1));
      streams.push(stream);
      // Started by its first read; what it delivers (RATE_LIMITED events, later) is not read.
      stream.next().catch(() => undefined);
    }
    await until(() => h.live.activity.pollerCount === 6, 'six pollers');
    // Pollers call until the key's calls (the live key check's included) reach their part.
    await until(() => callsOf(KEY).length >= POLLERS_PART, 'the pollers to spend their part');
    await settle(500);
    // Their part and not one call more: the rest waits (or fails RATE_LIMITED unsent).
    expect(callsOf(KEY)).toHaveLength(POLLERS_PART);
    const polled = polls().length;
    expect(polled).toBeGreaterThanOrEqual(POLLERS_PART - 1);
    // A third of what queries may spend is left: pollers wait twice their setting.
    await until(async () => (await slowerThan('0.1')) > 0, 'a poller waiting longer than its setting');
    await until(async () => (await fewest('interactive')) === 10, 'the fewest left read as 10');
    expect(await fewest('poller')).toBe(0);

    // Every query of the key's interactive part succeeds under the flood.
    for (let i = 0; i < PER_WINDOW - RESERVE - POLLERS_PART; i++) {
      const read = await h.gql(ONE_CONFIG, {}, KEY);
      expect(read.body.errors).toBeUndefined();
      expect(read.body.data.project.destinationConfig.name).toEqual(expect.any(String));
    }
    // Past it, a query is refused unsent: the reserve is the owner's.
    const refused = await h.gql(ONE_CONFIG, {}, KEY);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', budget: true });
    await settle(500);
    expect(callsOf(KEY)).toHaveLength(PER_WINDOW - RESERVE);
    expect(polls()).toHaveLength(polled);
    // The pollers are still there, waiting (a refused poll waits its Retry-After), not calling.
    expect(h.live.activity.pollerCount).toBe(6);
    expect(await fewest('interactive')).toBe(0);
    expect(await fewest('poller')).toBe(0);

    // Another key's budget is its own.
    const other = await h.gql(ONE_CONFIG, {}, 'phx_read');
    expect(other.body.errors).toBeUndefined();
    expect(callsOf('phx_read')).toHaveLength(1);
    expect(callsOf(KEY)).toHaveLength(PER_WINDOW - RESERVE);
  });

  it('reports the budget left and the pollers’ intervals by class, with no key in any label', async () => {
    const { samples, text } = await scrape();
    expect(total(samples, 'gateway_upstream_budget_remaining_fewest', { window: 'minute' })).toBe(0);
    expect(total(samples, 'gateway_live_poll_interval_seconds_count', { class: 'activity' })).toBeGreaterThan(
      0,
    );
    expect(text).not.toMatch(/phx_/);
    for (const sample of samples.filter((s) => /budget|poll_interval/.test(s.name))) {
      expect(Object.keys(sample.labels).every((label) => ['window', 'class', 'le'].includes(label))).toBe(
        true,
      );
    }
  });
});
