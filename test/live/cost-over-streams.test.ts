// `extensions.cost` and the dry run over the streaming transports (docs/errors-and-limits.md): a
// mutation over SSE and WebSocket carries its cost; a subscription's event carries the calls its
// own fields made (the shared poll that found it is the poller's, in the budget only) with
// `estimatedCalls: null`; a dry run sent as `extensions: { dryRun: true }` over WebSocket and SSE
// (and X-Dry-Run over SSE) prices a query that fits, one over the limits and one over the budget
// left, and calls nothing upstream.
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { subscribe, type Transport } from '../support/clients.ts';
import { configId, type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const KEY = 'phx_full';
const RENAME = `mutation($input: UpdateDestinationConfigInput!) {
  updateDestinationConfig(input: $input) { destinationConfig { name } }
}`;
const FEED = 'subscription { activityAdded(projectId: "1") { id destinationConfig { name } } }';
const CREATE = `mutation($input: CreateDestinationConfigInput!) {
  createDestinationConfig(input: $input) { destinationConfig { databaseId } }
}`;
const FITS = '{ project(projectId: "1") { destinationConfigs(first: 5) { edges { node { name } } } } }';
const OVER_LIMITS =
  '{ project(projectId: "1") { destinationConfigs(first: 20) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }';
const OVER_BUDGET =
  '{ project(projectId: "1") { destinationConfigs(first: 3) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }';

describe.each<Transport>(['sse', 'ws'])('extensions.cost over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        UPSTREAM_BUDGET_PER_MINUTE: '480',
        UPSTREAM_BUDGET_PER_HOUR: '4800',
        COST_EXTENSIONS: 'true',
        ACTIVITY_POLL_MS: '60000',
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('a mutation carries its estimate, its calls and the budget left', async () => {
    const input = { id: configId('1', 3), name: `Renamed over ${transport}` };
    const stream = subscribe(h, transport, KEY, RENAME, { input });
    try {
      const { value } = await stream.next();
      expect(value.errors).toBeUndefined();
      expect(value.data.updateDestinationConfig.destinationConfig.name).toBe(input.name);
      const { cost } = value.extensions;
      const made = h.upstreamCalls().length;
      expect(made).toBeGreaterThan(0);
      expect(cost.calls).toBe(made);
      expect(cost.estimatedCalls).toBeGreaterThanOrEqual(1);
      expect(cost.budget.minute).toMatchObject({ limit: 480, remaining: 480 - made });
      expect(cost.budget.hour).toMatchObject({ limit: 4800, remaining: 4800 - made });
    } finally {
      stream.dispose();
    }
  });

  it('a subscription event carries the calls of its own fields, unpriced, and the budget left', async () => {
    // What the key spent before (a dry run calls nothing): the log below starts after it.
    const priced = await h.post(JSON.stringify({ query: FITS }), {
      authorization: `Bearer ${KEY}`,
      'x-dry-run': '1',
    });
    const before = 480 - priced.body.extensions.dryRun.budget.minute.remaining;
    const stream = subscribe(h, transport, KEY, FEED);
    try {
      const first = stream.next();
      const polls = () => h.upstreamCalls().filter((c) => c.path.endsWith('/activity_log/'));
      await until(() => polls().length >= 1, 'the baseline poll');
      const created = await h.gql(CREATE, {
        input: { projectId: '1', plugin: 1, order: 50, name: `Costed ${transport}` },
      });
      const databaseId = created.body.data.createDestinationConfig.destinationConfig.databaseId;
      const { value } = await first;
      expect(value.errors).toBeUndefined();
      expect(value.data.activityAdded.destinationConfig.name).toBe(`Costed ${transport}`);
      const { cost } = value.extensions;
      expect(cost.estimatedCalls).toBeNull();
      // Its one field read: the config, read by the event's round with the subscriber's key.
      const configReads = h.upstreamCalls({
        method: 'GET',
        path: `/api/projects/1/pipeline_destination_configs/${databaseId}/`,
      });
      expect(configReads).toHaveLength(1);
      expect(cost.calls).toBe(1);
      // The budget counts every call of the key (the polls, the write, the field's read): each
      // reaches the upstream's log (a poll woken by the event may be counted before it is logged).
      expect(cost.budget.minute.limit).toBe(480);
      const counted = 480 - cost.budget.minute.remaining - before;
      expect(counted).toBeGreaterThanOrEqual(3);
      await until(() => h.upstreamCalls().length >= counted, 'every call counted to reach the upstream');
    } finally {
      await stream.return();
      stream.dispose();
    }
  });
});

/** One result of `query` sent over graphql-ws with `extensions`. */
async function overWebSocket(h: Harness, query: string, extensions: Record<string, unknown>) {
  const client = createClient({
    url: h.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${KEY}` },
    retryAttempts: 0,
    lazy: true,
  });
  try {
    const { value } = await client.iterate({ query, extensions }).next();
    return value;
  } finally {
    await client.dispose();
  }
}

/** The first result of `query` posted as an SSE stream, with `headers` and `extensions`. */
async function overSse(
  h: Harness,
  query: string,
  extensions: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(h.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${KEY}`,
      ...headers,
    },
    body: JSON.stringify({ query, extensions }),
  });
  const text = await response.text();
  return JSON.parse(/event: next\ndata: (.*)\n/.exec(text)![1]!);
}

describe('a dry run over WebSocket and SSE', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { UPSTREAM_BUDGET_PER_MINUTE: '3', UPSTREAM_BUDGET_PER_HOUR: '100', MAX_UPSTREAM_CALLS: '10' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const runs = {
    'WebSocket, extensions.dryRun': (query: string) => overWebSocket(h, query, { dryRun: true }),
    'SSE, extensions.dryRun': (query: string) => overSse(h, query, { dryRun: true }),
    'SSE, X-Dry-Run': (query: string) => overSse(h, query, {}, { 'x-dry-run': '1' }),
  };

  it.each(Object.keys(runs))('over %s: a query that fits is priced, and nothing is called', async (name) => {
    const result = await runs[name as keyof typeof runs](FITS);
    expect(result.data).toBeNull();
    expect(result.errors).toBeUndefined();
    expect(result.extensions.dryRun).toMatchObject({
      fitsLimits: true,
      fitsBudget: true,
      budget: { minute: { limit: 3, remaining: 3 } },
    });
    expect(result.extensions.dryRun.estimatedCalls).toBeGreaterThan(0);
    expect(result.extensions.dryRun.refusal).toBeUndefined();
    expect(h.upstreamCalls()).toEqual([]);
  });

  it.each(Object.keys(runs))('over %s: a query over the limits says by which', async (name) => {
    const { dryRun } = (await runs[name as keyof typeof runs](OVER_LIMITS)).extensions;
    expect(dryRun.fitsLimits).toBe(false);
    expect(dryRun.refusal).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'upstreamCalls',
      figure: dryRun.estimatedCalls,
      limit: 10,
    });
    expect(dryRun.costliestField.path).toBe('project.destinationConfigs');
    expect(h.upstreamCalls()).toEqual([]);
  });

  it.each(Object.keys(runs))('over %s: a query over the budget left says so', async (name) => {
    const { dryRun } = (await runs[name as keyof typeof runs](OVER_BUDGET)).extensions;
    expect(dryRun.estimatedCalls).toBeGreaterThan(3);
    expect(dryRun).toMatchObject({ fitsLimits: true, fitsBudget: false });
    expect(h.upstreamCalls()).toEqual([]);
  });
});
