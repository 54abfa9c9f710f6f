// Priorities and a reserve in a key's upstream budget (UPSTREAM_BUDGET_RESERVE_PERCENT): 20 calls
// a minute with a 25% reserve leave 5 for the key's owner, which no call spends; interactive
// calls and writes may spend 15, pollers (a @live query's re-runs) 10, so that under a flood of
// pollers a query and a mutation still get through; pollers wait longer as the budget tightens,
// which /metrics reports with no key in any label. Counted by the emulator's request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { configId, type Harness, startHarness } from '../support/harness.ts';
import { parsePrometheus, total } from '../support/prometheus.ts';
import { settle, until } from '../support/wait.ts';

const TOKEN = 'metrics-token-0123456789';
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';
const LIVE_CONFIG = 'query @live { project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';
const RENAME = `mutation($input: UpdateDestinationConfigInput!) {
  updateDestinationConfig(input: $input) { destinationConfig { name } }
}`;

describe('a key budget with a reserve and priorities', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        UPSTREAM_BUDGET_PER_MINUTE: '20',
        UPSTREAM_BUDGET_PER_HOUR: '1000',
        UPSTREAM_BUDGET_RESERVE_PERCENT: '25',
        LIVE_QUERY_POLL_MS: '100',
        REQUEST_DEADLINE_MS: '2000',
        METRICS_TOKEN: TOKEN,
      },
    });
  });
  afterAll(() => h.close());

  const callsOf = (key: string) => h.upstreamCalls().filter((c) => c.authorization === `Bearer ${key}`);
  const scrape = async () => {
    const response = await fetch(h.url.replace('/graphql', '/metrics'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    return { text: await response.clone().text(), samples: parsePrometheus(await response.text()) };
  };
  /** Live re-runs that waited longer than `seconds`. */
  const slowerThan = async (seconds: string) => {
    const { samples } = await scrape();
    const name = 'gateway_live_poll_interval_seconds_bucket';
    return (
      total(samples, name, { class: 'live_query', le: '+Inf' }) -
      total(samples, name, { class: 'live_query', le: seconds })
    );
  };

  it('never spends the reserve: a flood of queries sends 15 of 20 and refuses the rest unsent', async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => h.gql(ONE_CONFIG, {}, 'phx_read')));
    const refused = answers.filter((a) => a.body.errors?.[0]?.extensions.code === 'RATE_LIMITED');
    expect(callsOf('phx_read')).toHaveLength(15);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body.errors[0].extensions).toMatchObject({ budget: true });
  });

  it('under a flood of live re-runs, a query and a mutation still get through; pollers slow down', async () => {
    const live = Array.from({ length: 4 }, (_, i) =>
      subscribe(h, i % 2 ? 'ws' : 'sse', 'phx_full', `${LIVE_CONFIG} # ${i}`),
    );
    for (const stream of live) expect((await stream.next()).value.errors).toBeUndefined();
    // The re-runs stop at the pollers' part (10 calls), their first runs included.
    await until(() => callsOf('phx_full').length >= 10, 'the pollers to spend their part');
    await settle(500);
    expect(callsOf('phx_full')).toHaveLength(10);
    // Past half of the usable part, their interval doubled at least.
    expect(await slowerThan('0.1')).toBeGreaterThan(0);

    const read = await h.gql(ONE_CONFIG, {}, 'phx_full');
    expect(read.body.errors).toBeUndefined();
    const renamed = await h.gql(RENAME, { input: { id: configId('1', 3), name: 'Renamed under a flood' } });
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data.updateDestinationConfig.destinationConfig.name).toBe('Renamed under a flood');

    // Interactive calls spend up to the reserve: then pollers wait eight times their setting.
    while (callsOf('phx_full').length < 15) {
      if ((await h.gql(ONE_CONFIG, {}, 'phx_full')).body.errors) break;
    }
    expect(callsOf('phx_full')).toHaveLength(15);
    await until(async () => (await slowerThan('0.5')) > 0, 'a poller waiting eight times its setting');
    for (const stream of live) {
      await stream.return();
      stream.dispose();
    }
  });

  it('reports the budget, the reserve and pollers’ intervals, with no key in any label', async () => {
    const { samples, text } = await scrape();
    expect(total(samples, 'gateway_upstream_budget_limit', { window: 'minute' })).toBe(20);
    expect(total(samples, 'gateway_upstream_budget_limit', { window: 'hour' })).toBe(1000);
    expect(total(samples, 'gateway_upstream_budget_reserve_ratio')).toBe(0.25);
    expect(
      total(samples, 'gateway_live_poll_interval_seconds_count', { class: 'live_query' }),
    ).toBeGreaterThan(0);
    expect(text).not.toMatch(/phx_/);
    for (const sample of samples.filter((s) => /budget|poll_interval/.test(s.name))) {
      expect(Object.keys(sample.labels).every((label) => ['window', 'class', 'le'].includes(label))).toBe(
        true,
      );
    }
  });
});
