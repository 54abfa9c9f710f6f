// What a caller sees of cost and of its key's PostHog budget (docs/errors-and-limits.md):
// `extensions.cost` over HTTP (POST, GET), SSE and WebSocket, the RateLimit-Policy and RateLimit
// fields, a dry run that calls nothing upstream, and COST_EXTENSIONS=false.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const KEY = 'phx_full';
const ONE_CALL = '{ project(projectId: "1") { name } }';
const CONFIGS = '{ project(projectId: "1") { destinationConfigs(first: 5) { edges { node { name } } } } }';
/** Each config's activity is a call of its own: 1 + 1 + 20 estimated. */
const MANY_CALLS =
  '{ project(projectId: "1") { destinationConfigs(first: 20) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }';

const budgeted = {
  UPSTREAM_BUDGET_PER_MINUTE: '480',
  UPSTREAM_BUDGET_PER_HOUR: '4800',
  COST_EXTENSIONS: 'true',
};

describe('extensions.cost and the RateLimit fields', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: budgeted });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('a POST answer carries the estimate, the calls made and the budget left, in its body and headers', async () => {
    const first = await h.gql(CONFIGS, {}, KEY);
    expect(first.body.errors).toBeUndefined();
    const made = h.upstreamCalls().length;
    const { cost } = first.body.extensions;
    expect(cost.calls).toBe(made);
    expect(cost.estimatedCalls).toBeGreaterThanOrEqual(made);
    expect(cost.budget.minute).toEqual({
      limit: 480,
      remaining: 480 - made,
      resetSeconds: expect.any(Number),
    });
    expect(cost.budget.hour).toMatchObject({ limit: 4800, remaining: 4800 - made });
    expect(cost.budget.minute.resetSeconds).toBeGreaterThan(0);
    expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=480;w=60, "hour";q=4800;w=3600');
    expect(first.headers.get('ratelimit')).toBe(
      `"minute";r=${480 - made};t=${cost.budget.minute.resetSeconds}, "hour";r=${4800 - made};t=${cost.budget.hour.resetSeconds}`,
    );
    // The second answer shows the first's calls spent too.
    const second = await h.gql(CONFIGS, {}, KEY);
    expect(second.body.extensions.cost.budget.minute.remaining).toBe(480 - h.upstreamCalls().length);
    for (const [, value] of second.headers) expect(value).not.toContain(KEY);
  });

  it('a GET answer carries them too', async () => {
    const url = `${h.url}?query=${encodeURIComponent(ONE_CALL)}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' },
    });
    const body = await response.json();
    expect(body.extensions.cost.calls).toBe(h.upstreamCalls().length);
    expect(body.extensions.cost.estimatedCalls).toBe(1);
    expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=480;w=60, "hour";q=4800;w=3600');
    expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+, "hour";r=\d+;t=\d+$/);
  });

  it('an answer over SSE carries extensions.cost in its event and the fields in its head', async () => {
    const response = await fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${KEY}`,
      },
      body: JSON.stringify({ query: CONFIGS }),
    });
    const text = await response.text();
    const data = /event: next\ndata: (.*)\n/.exec(text)?.[1];
    const result = JSON.parse(data!);
    expect(result.extensions.cost.calls).toBe(h.upstreamCalls().length);
    expect(result.extensions.cost.budget.minute.limit).toBe(480);
    expect(response.headers.get('ratelimit-policy')).toBe('"minute";q=480;w=60, "hour";q=4800;w=3600');
    expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+/);
  });

  it('a result over WebSocket (graphql-ws) carries extensions.cost', async () => {
    const stream = subscribe(h, 'ws', KEY, CONFIGS);
    try {
      const { value } = await stream.next();
      expect(value.errors).toBeUndefined();
      expect(value.extensions.cost.calls).toBe(h.upstreamCalls().length);
      expect(value.extensions.cost.estimatedCalls).toBeGreaterThanOrEqual(value.extensions.cost.calls);
      expect(value.extensions.cost.budget.hour.limit).toBe(4800);
    } finally {
      stream.dispose();
    }
  });

  it('an answer without a key has no budget, and no RateLimit fields', async () => {
    const { body, headers } = await h.gql(ONE_CALL, {}, null);
    expect(headers.get('ratelimit')).toBeNull();
    expect(headers.get('ratelimit-policy')).toBeNull();
    expect(body.extensions?.cost?.budget ?? null).toBeNull();
  });
});

describe('a dry run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_BUDGET_PER_MINUTE: '3', UPSTREAM_BUDGET_PER_HOUR: '100', MAX_UPSTREAM_CALLS: '10' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const dryRun = (query: string) =>
    h.post(JSON.stringify({ query }), { authorization: `Bearer ${KEY}`, 'x-dry-run': '1' });

  it('prices a query that fits, and calls nothing upstream', async () => {
    const { status, body, headers } = await dryRun(CONFIGS);
    expect(status).toBe(200);
    expect(body.data).toBeNull();
    expect(body.errors).toBeUndefined();
    const { dryRun: run } = body.extensions;
    expect(run).toMatchObject({
      fitsLimits: true,
      fitsBudget: true,
      budget: { minute: { limit: 3, remaining: 3 } },
    });
    expect(run.estimatedCalls).toBeGreaterThan(0);
    expect(run.estimatedCalls).toBeLessThanOrEqual(3);
    expect(run.cost).toBeGreaterThan(0);
    expect(run.costliestField.calls).toBeGreaterThan(0);
    expect(run.refusal).toBeUndefined();
    expect(headers.get('ratelimit')).toMatch(/^"minute";r=3;t=0/);
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('says which limit a query over it is refused by, and calls nothing upstream', async () => {
    const { body } = await dryRun(MANY_CALLS);
    const { dryRun: run } = body.extensions;
    expect(run.fitsLimits).toBe(false);
    expect(run.refusal).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'upstreamCalls',
      figure: run.estimatedCalls,
      limit: 10,
    });
    expect(run.costliestField.path).toBe('project.destinationConfigs');
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('says a query within the limits does not fit the budget left, and calls nothing upstream', async () => {
    const query =
      '{ project(projectId: "1") { destinationConfigs(first: 3) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }';
    const { body } = await h.post(JSON.stringify({ query, extensions: { dryRun: true } }), {
      authorization: `Bearer ${KEY}`,
    });
    const { dryRun: run } = body.extensions;
    expect(run.estimatedCalls).toBeGreaterThan(3);
    expect(run).toMatchObject({ fitsLimits: true, fitsBudget: false });
    expect(h.upstreamCalls()).toEqual([]);
  });
});

describe('COST_EXTENSIONS=false', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ...budgeted, COST_EXTENSIONS: 'false' } });
  });
  afterAll(() => h.close());

  it('leaves extensions.cost out, and keeps the RateLimit fields', async () => {
    const { body, headers } = await h.gql(ONE_CALL, {}, KEY);
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.cost).toBeUndefined();
    expect(h.upstreamCalls().length).toBe(1);
    expect(headers.get('ratelimit-policy')).toBe('"minute";q=480;w=60, "hour";q=4800;w=3600');
  });
});
