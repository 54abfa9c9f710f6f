// A page of runs each with its backfill: one read of the export's backfill list answers every run
// a backfill started (not a retrieve per run), and the query fits the default limits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const S3_HOURLY = '018f0a5e-0020-7000-8000-000000000001';
const RUNS = `query($since: DateTime) { project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") {
  runs(first: 100, since: $since) { edges { node { uuid backfill { id uuid status } } } }
} } }`;

describe('runs with their backfills, posthog-2026', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('reads the backfills of a page of runs from the export’s backfill list', async () => {
    const first = await h.gql(RUNS);
    const uuids: string[] = first.body.data.project.batchExport.runs.edges.map(
      (e: { node: { uuid: string } }) => e.node.uuid,
    );
    // Four runs of the page started by four of the export's newest backfills (the list's first page).
    const records = h.upstream.store.batchExports;
    const newest = [...records.backfills.values()]
      .filter((b) => b.batchExportId === S3_HOURLY)
      .sort((a, b) => b.createdAtMicros - a.createdAtMicros)
      .slice(0, 4);
    uuids.slice(10, 14).forEach((uuid, n) => {
      // In place: the dialect indexes the runs it holds.
      records.runs.get(uuid)!.backfillId = newest[n]!.id;
    });
    h.upstream.clearRequests();
    const { body } = await h.gql(RUNS);
    expect(body.errors).toBeUndefined();
    const runs: { uuid: string; backfill: { uuid: string } | null }[] =
      body.data.project.batchExport.runs.edges.map((e: { node: unknown }) => e.node);
    expect(runs).toHaveLength(100);
    const backfillOf = new Map(runs.map((r) => [r.uuid, r.backfill?.uuid]));
    expect(uuids.slice(10, 14).map((uuid) => backfillOf.get(uuid))).toEqual(newest.map((b) => b.id));
    const calls = h
      .upstreamCalls()
      .map((c) => c.path.replace(`/api/projects/1/batch_exports/${S3_HOURLY}/`, ''));
    // The export, a page of runs, one page of the backfill list: no backfill retrieved alone.
    expect(calls.filter((p) => /^backfills\/.+/.test(p))).toEqual([]);
    expect(calls.filter((p) => p === 'backfills/')).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('fits the default limits (MAX_UPSTREAM_CALLS 50) with the window PostHog lists by default', async () => {
    const { body } = await h.gql(RUNS);
    expect(body.errors).toBeUndefined();
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(5);
  });
});
