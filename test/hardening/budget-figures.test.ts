// The budget figures a caller sees (docs/errors-and-limits.md, "The budget a caller sees"): a dry
// run weighs a query against what is left of the window, not the window's limit; and every figure
// (RateLimit-Policy, RateLimit, extensions.cost, a dry run's budget) leaves the reserve out.
// Calls counted in the emulator's request log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const KEY = 'phx_full';
const ONE_CALL = '{ project(projectId: "1") { name } }';
/** 1 + 1 + 3 estimated: each config's activity is a call of its own. */
const FIVE_CALLS =
  '{ project(projectId: "1") { destinationConfigs(first: 3) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }';

describe('a dry run after part of the window is spent', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_BUDGET_PER_MINUTE: '5', UPSTREAM_BUDGET_PER_HOUR: '100', COST_EXTENSIONS: 'true' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const dryRun = (query: string) =>
    h.post(JSON.stringify({ query }), { authorization: `Bearer ${KEY}`, 'x-dry-run': '1' });

  it('weighs a query against what remains: within the limit but not what is left, then one that fits', async () => {
    for (let i = 0; i < 3; i++) expect((await h.gql(ONE_CALL, {}, KEY)).body.errors).toBeUndefined();
    expect(h.upstreamCalls()).toHaveLength(3);

    const over = (await dryRun(FIVE_CALLS)).body.extensions.dryRun;
    expect(over.estimatedCalls).toBeGreaterThan(2);
    expect(over.estimatedCalls).toBeLessThanOrEqual(5);
    expect(over).toMatchObject({
      fitsLimits: true,
      fitsBudget: false,
      budget: { minute: { limit: 5, remaining: 2 }, hour: { limit: 100, remaining: 97 } },
    });

    const within = (await dryRun(ONE_CALL)).body.extensions.dryRun;
    expect(within.estimatedCalls).toBe(1);
    expect(within).toMatchObject({
      fitsLimits: true,
      fitsBudget: true,
      budget: { minute: { limit: 5, remaining: 2 } },
    });
    // Neither dry run called anything.
    expect(h.upstreamCalls()).toHaveLength(3);
  });
});

describe('the reserve left out of every figure (UPSTREAM_BUDGET_RESERVE_PERCENT=10)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        UPSTREAM_BUDGET_PER_MINUTE: '480',
        UPSTREAM_BUDGET_PER_HOUR: '4800',
        UPSTREAM_BUDGET_RESERVE_PERCENT: '10',
        COST_EXTENSIONS: 'true',
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('says q=432 of 480 a minute and 4320 of 4800 an hour, as the docs promise', async () => {
    const { body, headers } = await h.gql(ONE_CALL, {}, KEY);
    expect(body.errors).toBeUndefined();
    const made = h.upstreamCalls().length;
    expect(made).toBe(1);
    expect(headers.get('ratelimit-policy')).toBe('"minute";q=432;w=60, "hour";q=4320;w=3600');
    const { budget } = body.extensions.cost;
    expect(budget.minute).toMatchObject({ limit: 432, remaining: 432 - made });
    expect(budget.hour).toMatchObject({ limit: 4320, remaining: 4320 - made });
    expect(headers.get('ratelimit')).toBe(
      `"minute";r=${432 - made};t=${budget.minute.resetSeconds}, "hour";r=${4320 - made};t=${budget.hour.resetSeconds}`,
    );
  });

  it('a dry run shows the same figures', async () => {
    const { body, headers } = await h.post(JSON.stringify({ query: ONE_CALL }), {
      authorization: `Bearer ${KEY}`,
      'x-dry-run': '1',
    });
    expect(body.extensions.dryRun.budget.minute.limit).toBe(432);
    expect(body.extensions.dryRun.budget.hour.limit).toBe(4320);
    expect(headers.get('ratelimit-policy')).toBe('"minute";q=432;w=60, "hour";q=4320;w=3600');
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});
