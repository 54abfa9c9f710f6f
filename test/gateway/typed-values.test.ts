// Typed values (issue 67 part 5), posthog-2026 dialect: each seeded value reads as its enum
// value; a value PostHog adds later (written into the emulator's store, or for a template of its
// fixed catalogue a 200 fault with a body) reads UNKNOWN, no error, raw string unchanged; the
// typed fields cost no upstream call.
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
  events: 'EVENTS',
  persons: 'PERSONS',
  sessions: 'SESSIONS',
  hogql: 'HOGQL',
  S3: 'S3',
  AwsS3: 'AWS_S3',
  S3Compatible: 'S3_COMPATIBLE',
  Snowflake: 'SNOWFLAKE',
  Postgres: 'POSTGRES',
  Redshift: 'REDSHIFT',
  BigQuery: 'BIG_QUERY',
  Databricks: 'DATABRICKS',
  AzureBlob: 'AZURE_BLOB',
  Workflows: 'WORKFLOWS',
  HTTP: 'HTTP',
  NoOp: 'NO_OP',
  FileDownload: 'FILE_DOWNLOAD',
  stable: 'STABLE',
  alpha: 'ALPHA',
  beta: 'BETA',
  hidden: 'HIDDEN',
  coming_soon: 'COMING_SOON',
  deprecated: 'DEPRECATED',
  hog: 'HOG',
  javascript: 'JAVASCRIPT',
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
const EXPORTS_QUERY = `{ project(projectId: "1") {
  batchExports(first: 100) { edges { node { model modelValue destinationType destinationTypeValue } } }
} }`;
const TEMPLATE_FIELDS = 'type typeValue status statusValue codeLanguage codeLanguageValue';
const TEMPLATES_QUERY = `{ project(projectId: "1") {
  hogFunctionTemplates(first: 100, types: ["destination", "transformation", "site_destination", "site_app", "source_webhook", "internal_destination"]) {
    edges { node { ${TEMPLATE_FIELDS} } }
  }
} }`;
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

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
function listPairs(p: any): Record<string, Pair[]> {
  const exports = p.batchExports ? edges(p.batchExports) : [];
  const templates = p.hogFunctionTemplates ? edges(p.hogFunctionTemplates) : [];
  const pair =
    (field: string) =>
    (n: Record<string, string>): Pair => [n[field]!, n[`${field}Value`]!];
  return {
    ...(exports.length
      ? { models: exports.map(pair('model')), destinationTypes: exports.map(pair('destinationType')) }
      : {}),
    ...(templates.length
      ? {
          templateTypes: templates.map(pair('type')),
          templateStatuses: templates.map(pair('status')),
          codeLanguages: templates.map(pair('codeLanguage')),
        }
      : {}),
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
    const queries = [EXPORT_QUERY, FUNCTIONS_QUERY, EXPORTS_QUERY, TEMPLATES_QUERY];
    const withTyped = [];
    for (const q of queries) withTyped.push(await h.gql(q));
    const callsWithTyped = h.upstreamCalls().length;
    for (const { body } of withTyped) expect(body.errors).toBeUndefined();
    const pairs = {
      ...exportPairs(withTyped[0]!.body.data.project.batchExport),
      ...functionPairs(withTyped[1]!.body.data.project),
      ...listPairs(withTyped[2]!.body.data.project),
      ...listPairs(withTyped[3]!.body.data.project),
    };
    expect(Object.keys(pairs)).toHaveLength(10);
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
    const strip = (q: string) => q.replace(/ [a-zA-Z]+Value\b/g, '');
    for (const q of queries) await h.gql(strip(q));
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

  it('reads a model or destination type PostHog adds later as UNKNOWN, and a null model as null', async () => {
    const exports = h.upstream.store.batchExports.exports;
    exports.get(S3_HOURLY)!.model = 'replays';
    exports.get(S3_HOURLY)!.destination.type = 'ClickHouse';
    const [other] = [...exports.values()].filter((e) => e.id !== S3_HOURLY && !e.deleted);
    other!.model = null;
    const { body } = await h.gql(`{ project(projectId: "1") {
      added: batchExport(uuid: "${S3_HOURLY}") { model modelValue destinationType destinationTypeValue }
      unset: batchExport(uuid: "${other!.id}") { model modelValue }
    } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.project.added).toEqual({
      model: 'replays',
      modelValue: 'UNKNOWN',
      destinationType: 'ClickHouse',
      destinationTypeValue: 'UNKNOWN',
    });
    expect(body.data.project.unset).toEqual({ model: null, modelValue: null });
  });

  it('reads a template’s values PostHog adds later as UNKNOWN, and absent ones as null', async () => {
    const template = { id: 'template-later', name: 'Later', type: 'hog_flow_step', status: 'sunset' };
    h.upstream.faults.add({
      path: '/hog_function_templates/template-later/',
      action: { kind: 'status', status: 200, body: { ...template, code_language: 'python' } },
    });
    h.upstream.faults.add({
      path: '/hog_function_templates/template-bare/',
      action: { kind: 'status', status: 200, body: { id: 'template-bare', name: 'Bare' } },
    });
    const { body } = await h.gql(`{ project(projectId: "1") {
      later: hogFunctionTemplate(id: "template-later") { ${TEMPLATE_FIELDS} }
      bare: hogFunctionTemplate(id: "template-bare") { ${TEMPLATE_FIELDS} }
    } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.project.later).toEqual({
      type: 'hog_flow_step',
      typeValue: 'UNKNOWN',
      status: 'sunset',
      statusValue: 'UNKNOWN',
      codeLanguage: 'python',
      codeLanguageValue: 'UNKNOWN',
    });
    expect(body.data.project.bare).toEqual({
      type: null,
      typeValue: null,
      status: null,
      statusValue: null,
      codeLanguage: null,
      codeLanguageValue: null,
    });
    expect(h.upstreamCalls().filter((c) => c.path.includes('/hog_function_templates/'))).toHaveLength(2);
  });
});
