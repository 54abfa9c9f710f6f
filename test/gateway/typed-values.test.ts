// Typed values (issue 67 part 5): a field whose value PostHog picks from a closed set keeps its raw
// String and has `<field>Value` beside it, an enum with UNKNOWN. Against today's PostHog (the
// posthog-2026 dialect): each seeded value reads as its enum value, a value PostHog adds later
// (written into the emulator's store) reads UNKNOWN with no error and the raw string unchanged,
// and the typed fields cost no upstream call.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const S3_HOURLY = '018f0a5e-0020-7000-8000-000000000001';
const SLACK = '018f0a5e-0007-7000-8000-000000000002';

/** PostHog's values and the enum values they read as, written out (not derived) to check the derivation. */
const EXPECTED: Record<string, string> = {
  Starting: 'STARTING',
  Running: 'RUNNING',
  Completed: 'COMPLETED',
  Failed: 'FAILED',
  FailedRetryable: 'FAILED_RETRYABLE',
  FailedBilling: 'FAILED_BILLING',
  Cancelled: 'CANCELLED',
  Terminated: 'TERMINATED',
  TimedOut: 'TIMED_OUT',
  ContinuedAsNew: 'CONTINUED_AS_NEW',
  hour: 'HOUR',
  day: 'DAY',
  week: 'WEEK',
  'every 5 minutes': 'EVERY_5_MINUTES',
  'every 15 minutes': 'EVERY_15_MINUTES',
  destination: 'DESTINATION',
  site_destination: 'SITE_DESTINATION',
  internal_destination: 'INTERNAL_DESTINATION',
  source_webhook: 'SOURCE_WEBHOOK',
  warehouse_source_webhook: 'WAREHOUSE_SOURCE_WEBHOOK',
  site_app: 'SITE_APP',
  transformation: 'TRANSFORMATION',
  transformation_log: 'TRANSFORMATION_LOG',
  legacy_destination: 'LEGACY_DESTINATION',
  DEBUG: 'DEBUG',
  INFO: 'INFO',
  WARN: 'WARN',
  ERROR: 'ERROR',
};

const EXPORT_QUERY = `{ project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") {
  interval intervalValue
  latestRuns { status statusValue }
  runs(first: 50) { edges { node { status statusValue } } }
  backfills(first: 20) { edges { node { status statusValue } } }
} } }`;
const FUNCTIONS_QUERY = `{ project(projectId: "1") {
  hogFunctions(first: 100) { edges { node { type typeValue } } }
  hogFunction(uuid: "${SLACK}") { type typeValue logs(first: 20) { edges { node { level levelValue } } } }
} }`;

type Pair = [raw: string, typed: string];
// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
const edges = (c: any) => c.edges.map((e: { node: unknown }) => e.node);

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
function exportPairs(e: any): Record<string, Pair[]> {
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const status = (n: any): Pair => [n.status, n.statusValue];
  return {
    interval: [[e.interval, e.intervalValue]],
    runs: [...e.latestRuns.map(status), ...edges(e.runs).map(status)],
    backfills: edges(e.backfills).map(status),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
function functionPairs(p: any): Record<string, Pair[]> {
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const type = (n: any): Pair => [n.type, n.typeValue];
  return {
    types: [...edges(p.hogFunctions).map(type), type(p.hogFunction)],
    levels: edges(p.hogFunction.logs).map((n: { level: string; levelValue: string }) => [
      n.level,
      n.levelValue,
    ]),
  };
}

describe('typed values beside raw strings, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('reads each known value as its enum value, with no extra upstream call', async () => {
    const withTyped = [await h.gql(EXPORT_QUERY), await h.gql(FUNCTIONS_QUERY)];
    const callsWithTyped = h.upstreamCalls().length;
    for (const { body } of withTyped) expect(body.errors).toBeUndefined();
    const pairs = {
      ...exportPairs(withTyped[0]!.body.data.project.batchExport),
      ...functionPairs(withTyped[1]!.body.data.project),
    };
    for (const [name, list] of Object.entries(pairs)) {
      expect(list.length, name).toBeGreaterThan(0);
      for (const [raw, typed] of list) expect(typed, `${name}: ${raw}`).toBe(EXPECTED[raw]);
    }
    // The seed covers several values of each set.
    expect(new Set(pairs.runs!.map(([, typed]) => typed)).size).toBeGreaterThan(1);
    expect(new Set(pairs.types!.map(([, typed]) => typed)).size).toBeGreaterThan(1);
    expect(new Set(pairs.levels!.map(([, typed]) => typed))).toEqual(
      new Set(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    );

    h.reset();
    const strip = (q: string) => q.replace(/ (intervalValue|statusValue|typeValue|levelValue)/g, '');
    await h.gql(strip(EXPORT_QUERY));
    await h.gql(strip(FUNCTIONS_QUERY));
    expect(h.upstreamCalls()).toHaveLength(callsWithTyped);
  });

  it('reads a value PostHog adds later as UNKNOWN, with no error and the raw string unchanged', async () => {
    const store = h.upstream.store;
    const exported = store.batchExports.exports.get(S3_HOURLY)!;
    exported.interval = 'every 30 seconds';
    const runs = [...store.batchExports.runs.values()].filter((r) => r.batchExportId === S3_HOURLY);
    for (const run of runs) run.status = 'PausedByPostHog';
    for (const backfill of store.batchExports.backfills.values())
      if (backfill.batchExportId === S3_HOURLY) backfill.status = 'Queued';
    store.hogFunctions.get(SLACK)!.type = 'hog_flow_step';
    for (const line of store.hogLogs)
      if (line.functionId === SLACK) (line as { level: string }).level = 'TRACE';

    const [exportAnswer, functionsAnswer] = [await h.gql(EXPORT_QUERY), await h.gql(FUNCTIONS_QUERY)];
    expect(exportAnswer.body.errors).toBeUndefined();
    expect(functionsAnswer.body.errors).toBeUndefined();
    const e = exportPairs(exportAnswer.body.data.project.batchExport);
    const f = functionPairs(functionsAnswer.body.data.project);
    expect(e.interval).toEqual([['every 30 seconds', 'UNKNOWN']]);
    expect(e.runs!.length).toBeGreaterThan(0);
    for (const pair of e.runs!) expect(pair).toEqual(['PausedByPostHog', 'UNKNOWN']);
    expect(e.backfills!.length).toBeGreaterThan(0);
    for (const pair of e.backfills!) expect(pair).toEqual(['Queued', 'UNKNOWN']);
    expect(f.types).toContainEqual(['hog_flow_step', 'UNKNOWN']);
    expect(f.types!.at(-1)).toEqual(['hog_flow_step', 'UNKNOWN']);
    // The other functions keep their known values.
    expect(f.types!.filter(([, typed]) => typed !== 'UNKNOWN').length).toBeGreaterThan(0);
    expect(f.levels!.length).toBeGreaterThan(0);
    for (const pair of f.levels!) expect(pair).toEqual(['TRACE', 'UNKNOWN']);
  });
});
