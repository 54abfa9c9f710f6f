// The 2026 dialect's batch export runs and backfills (PostHog's runs.py and backfills.py under
// products/batch_exports/backend/presentation/views/batch_export/): cursor pages of 100 runs in a
// window of 7 days unless `after`/`before` widen it, retrieve/retry/cancel in that same window,
// backfills in pages of 50, their progress, create's input errors and its concurrency 429.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BatchExportRun } from '../src/batch-exports/model.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const exportId = (n: number) => `018f0a5e-0020-7000-8000-${n.toString(16).padStart(12, '0')}`;
const EXPORTS = '/api/projects/1/batch_exports';
const S3 = exportId(1);
const BIGQUERY = exportId(2);
const POSTGRES = exportId(4);
const RUNS = `${EXPORTS}/${S3}/runs/`;
const BACKFILLS = `${EXPORTS}/${S3}/backfills/`;
const DAY = 86_400_000_000;
const RUN_FIELDS = [
  'id',
  'data_interval_end',
  'status',
  'records_completed',
  'records_failed',
  'latest_error',
  'data_interval_start',
  'cursor',
  'created_at',
  'finished_at',
  'last_updated_at',
  'records_total_count',
  'bytes_exported',
  'batch_export',
  'batch_export_on_demand',
  'backfill',
];
const BACKFILL_FIELDS = [
  'id',
  'progress',
  'start_at',
  'end_at',
  'status',
  'created_at',
  'finished_at',
  'last_updated_at',
  'total_records_count',
  'adjusted_start_at',
  'team',
  'batch_export',
];
const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe('batch export runs and backfills, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const runsOf = (id: string) =>
    [...upstream.store.batchExports.runs.values()].filter((r) => r.batchExportId === id);
  const inWindow = (r: BatchExportRun, days: number) => r.createdAtMicros >= Date.now() * 1000 - days * DAY;
  const allPages = async (path: string) => {
    const pages = [];
    for (let next: string | null = path; next; ) {
      const page = await rest(upstream, 'GET', next);
      expect(page.status).toBe(200);
      pages.push(page.body);
      next = page.body.next && pathOf(page.body.next);
    }
    return pages;
  };

  it('pages the last 7 days of runs, newest first, 100 a page, in the serializer field order', async () => {
    const expected = runsOf(S3).filter((r) => inWindow(r, 7));
    expect(expected.length).toBeGreaterThan(150);
    const pages = await allPages(RUNS);
    expect(pages.map((p) => p.results.length)).toEqual([100, expected.length - 100]);
    expect(Object.keys(pages[0].results[0])).toEqual(RUN_FIELDS);
    const ids = pages.flatMap((p) => p.results.map((r: { id: string }) => r.id));
    expect(new Set(ids).size).toBe(expected.length);
    const created = pages.flatMap((p) => p.results.map((r: { created_at: string }) => r.created_at));
    expect([...created].sort().reverse()).toEqual(created);
    expect([pages[0].previous, pages[1].next]).toEqual([null, null]);
    expect(pathOf(pages[0].next)).toMatch(/^\/api\/projects\/1\/batch_exports\/[-0-9a-f]+\/runs\/\?cursor=/);
    const back = await rest(upstream, 'GET', pathOf(pages[1].previous));
    expect(back.body.results.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 100).slice(-100));
  });

  it('reaches older runs with `after`, and narrows by repeated `status`', async () => {
    const month = await allPages(`${RUNS}?after=-30d`);
    const all = month.flatMap((p) => p.results);
    expect(all.length).toBe(runsOf(S3).filter((r) => inWindow(r, 30)).length);
    expect(all.length).toBeGreaterThan(700);
    const iso = await rest(upstream, 'GET', `${RUNS}?after=${encodeURIComponent(isoDaysAgo(10))}`);
    expect(iso.body.results).toHaveLength(100);
    const failed = await allPages(`${RUNS}?after=-30d&status=Failed&status=Cancelled`);
    const statuses = new Set(failed.flatMap((p) => p.results.map((r: { status: string }) => r.status)));
    expect(statuses).toEqual(new Set(['Failed', 'Cancelled']));
    const bad = await rest(upstream, 'GET', `${RUNS}?status=Done`);
    expect([bad.status, bad.body.attr, bad.body.code, bad.body.detail]).toEqual([
      400,
      'status__0',
      'invalid_choice',
      '"Done" is not a valid choice.',
    ]);
  });

  it('orders by created_at or data_interval_start, the latter windowed on the data interval', async () => {
    const oldest = await rest(upstream, 'GET', `${RUNS}?ordering=created_at`);
    const created = oldest.body.results.map((r: { created_at: string }) => r.created_at);
    expect([...created].sort()).toEqual(created);
    expect(pathOf(oldest.body.next)).toContain('ordering=created_at');
    const intervals = await rest(upstream, 'GET', `${RUNS}?ordering=-data_interval_start&start=-2d`);
    const since = Date.now() * 1000 - 2 * DAY;
    const expected = runsOf(S3).filter((r) => (r.dataIntervalStartMicros ?? 0) >= since);
    expect(intervals.body.results.map((r: { id: string }) => r.id).sort()).toEqual(
      expected.map((r) => r.id).sort(),
    );
    expect(expected.length).toBeGreaterThan(40);
    const starts = intervals.body.results.map((r: { data_interval_start: string }) => r.data_interval_start);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it("answers an empty page for an unknown export, keeps a deleted one's runs, and 404 for a bad cursor", async () => {
    const unknown = await rest(upstream, 'GET', `${EXPORTS}/${exportId(99)}/runs/`);
    expect([unknown.status, unknown.body]).toEqual([200, { next: null, previous: null, results: [] }]);
    await rest(upstream, 'DELETE', `${EXPORTS}/${S3}/`);
    expect((await rest(upstream, 'GET', RUNS)).body.results).toHaveLength(100);
    const bad = await rest(upstream, 'GET', `${RUNS}?cursor=abc`);
    expect([bad.status, bad.body.detail]).toEqual([404, 'Invalid cursor']);
    const before = await allPages(`${RUNS}?after=-30d&before=-20d`);
    const ids = before.flatMap((p) => p.results.map((r: { id: string }) => r.id));
    expect(ids.length).toBe(runsOf(S3).filter((r) => inWindow(r, 30) && !inWindow(r, 20)).length);
  });

  it('retrieves a run inside the window only, unless `after` widens it', async () => {
    const old = runsOf(S3).find((r) => !inWindow(r, 10) && inWindow(r, 20))!;
    const recent = runsOf(S3).find((r) => inWindow(r, 1) && r.status === 'Completed')!;
    expect((await rest(upstream, 'GET', `${RUNS}${recent.id}/`)).body.id).toBe(recent.id);
    const hidden = await rest(upstream, 'GET', `${RUNS}${old.id}/`);
    expect([hidden.status, hidden.body.detail]).toEqual([404, 'Not found.']);
    expect((await rest(upstream, 'GET', `${RUNS}${old.id}/?after=-30d`)).status).toBe(200);
    expect((await rest(upstream, 'POST', `${RUNS}${old.id}/retry/`)).status).toBe(404);
  });

  it('retries a run as a backfill of its interval (201) and cancels only a running one', async () => {
    const done = runsOf(S3).find((r) => inWindow(r, 1) && r.status === 'Completed')!;
    const retry = await rest(upstream, 'POST', `${RUNS}${done.id}/retry/`);
    expect(retry.status).toBe(201);
    expect(Object.keys(retry.body)).toEqual(['backfill_id']);
    const backfill = await rest(upstream, 'GET', `${BACKFILLS}${retry.body.backfill_id}/`);
    const run = await rest(upstream, 'GET', `${RUNS}${done.id}/`);
    expect(backfill.body).toMatchObject({
      status: 'Starting',
      start_at: run.body.data_interval_start,
      end_at: run.body.data_interval_end,
    });
    const refused = await rest(upstream, 'POST', `${RUNS}${done.id}/cancel/`);
    expect([refused.status, refused.body.detail, refused.body.attr]).toEqual([
      400,
      "Cannot cancel a run that is in 'Completed' status",
      null,
    ]);
    const running = runsOf(S3).find((r) => r.status === 'Running' && r.backfillId === null)!;
    const cancelled = await rest(upstream, 'POST', `${RUNS}${running.id}/cancel/`);
    expect([cancelled.status, cancelled.body]).toEqual([200, { cancelled: true }]);
    expect((await rest(upstream, 'GET', `${RUNS}${running.id}/`)).body.status).toBe('Cancelled');
  });

  it('lists backfills 50 a page, newest first, with their progress', async () => {
    const pages = await allPages(BACKFILLS);
    expect(pages.map((p) => p.results.length)).toEqual([50, 5]);
    const [running] = pages[0].results;
    expect(Object.keys(running)).toEqual(BACKFILL_FIELDS);
    expect(running).toMatchObject({
      status: 'Running',
      progress: { total_runs: 24, finished_runs: 9, progress: 0.4 },
      team: 1,
      batch_export: S3,
    });
    const statuses = pages.flatMap((p) =>
      p.results.map((b: { status: string; progress: unknown }) => [b.status, b.progress]),
    );
    expect(statuses).toContainEqual(['Cancelled', null]);
    expect(statuses).toContainEqual(['Completed', { total_runs: 24, finished_runs: 24, progress: 1 }]);
    const byStart = await rest(upstream, 'GET', `${BACKFILLS}?ordering=start_at`);
    const starts = byStart.body.results.map((b: { start_at: string }) => b.start_at);
    expect([...starts].sort()).toEqual(starts);
    expect((await rest(upstream, 'GET', `${EXPORTS}/${exportId(99)}/backfills/`)).body.results).toEqual([]);
  });

  it('creates a backfill (201) and cancels a running one, but not a finished one', async () => {
    const created = await rest(upstream, 'POST', BACKFILLS, {
      json: { start_at: isoDaysAgo(3), end_at: isoDaysAgo(2) },
    });
    expect([created.status, Object.keys(created.body)]).toEqual([201, ['backfill_id']]);
    const one = await rest(upstream, 'GET', `${BACKFILLS}${created.body.backfill_id}/`);
    expect(one.body.status).toBe('Starting');
    expect((await rest(upstream, 'POST', `${BACKFILLS}${created.body.backfill_id}/cancel/`)).body).toEqual({
      cancelled: true,
    });
    const again = await rest(upstream, 'POST', `${BACKFILLS}${created.body.backfill_id}/cancel/`);
    expect([again.status, again.body.detail]).toEqual([
      400,
      "Cannot cancel a backfill that is in 'Cancelled' status",
    ]);
  });

  it('answers 429 too_many_concurrent_backfills, without Retry-After, once the team runs 3', async () => {
    const body = { start_at: isoDaysAgo(3), end_at: isoDaysAgo(2) };
    expect((await rest(upstream, 'POST', BACKFILLS, { json: body })).status).toBe(201);
    const capped = await rest(upstream, 'POST', `${EXPORTS}/${BIGQUERY}/backfills/`, {
      json: { start_at: '2026-01-01', end_at: '2026-01-02' },
    });
    expect(capped.status).toBe(429);
    expect(capped.headers.get('retry-after')).toBeNull();
    expect(capped.body).toEqual({
      type: 'server_error',
      code: 'too_many_concurrent_backfills',
      detail:
        'This team already has 3 batch export backfills running. Wait for some to finish or cancel them before creating more.',
      attr: null,
    });
    const running = [...upstream.store.batchExports.backfills.values()].find((b) => b.status === 'Running')!;
    await rest(upstream, 'POST', `${EXPORTS}/${running.batchExportId}/backfills/${running.id}/cancel/`);
    expect((await rest(upstream, 'POST', BACKFILLS, { json: body })).status).toBe(201);
    upstream.store.batchExports.settings.maxConcurrentBackfills = 5;
    expect((await rest(upstream, 'POST', BACKFILLS, { json: body })).status).toBe(201);
  });

  it.each([
    [S3, {}, 'Backfilling from the beginning of time is not enabled for this team.'],
    [
      S3,
      { start_at: isoDaysAgo(2), end_at: isoDaysAgo(3) },
      "The initial backfill datetime 'start_at' must be before 'end_at'",
    ],
    [S3, { start_at: '2026-01-01T00:00:00', end_at: isoDaysAgo(1) }, 'Input 2026-01-01T00:00:00 is naive.'],
    [
      S3,
      { start_at: 'yesterday', end_at: isoDaysAgo(1) },
      'Input yesterday is not a valid ISO formatted datetime.',
    ],
    [
      S3,
      { start_at: '2026-01-01T00:00:00+02:00', end_at: '2099-01-01T00:00:00+02:00' },
      "The provided 'end_at' (2099-01-01T00:00:00+02:00) is in the future",
    ],
    [
      BIGQUERY,
      { start_at: '2026-01-01T10:00:00Z', end_at: '2026-01-02' },
      "Input '2026-01-01T10:00:00Z' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.",
    ],
    [BIGQUERY, { start_at: 'soon', end_at: '2026-01-02' }, "Input 'soon' is not a valid ISO formatted date."],
    [
      POSTGRES,
      { start_at: '2026-01-01', end_at: '2026-01-05' },
      'Input 2026-01-01 is not on the correct day of the week for this batch export. 2026-01-01 is a Thursday but this batch export is configured to run weekly on Monday.',
    ],
  ])('refuses a backfill of %s from %j', async (id, body, detail) => {
    const answer = await rest(upstream, 'POST', `${EXPORTS}/${id}/backfills/`, { json: body });
    expect(answer.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail, attr: null });
  });

  it('answers 404 "BatchExport not found." for a backfill of an unknown export', async () => {
    const answer = await rest(upstream, 'POST', `${EXPORTS}/${exportId(99)}/backfills/`, {
      json: { start_at: isoDaysAgo(3), end_at: isoDaysAgo(2) },
    });
    expect([answer.status, answer.body.detail]).toEqual([404, 'BatchExport not found.']);
  });
});

describe('batch export settings given at start', () => {
  it('keeps the cap and the flags across reset()', async () => {
    const upstream = await startReferenceUpstream({
      dialect: 'posthog-2026',
      batchExports: { maxConcurrentBackfills: 2, highFrequency: true },
    });
    try {
      upstream.reset();
      const capped = await rest(upstream, 'POST', BACKFILLS, {
        json: { start_at: isoDaysAgo(3), end_at: isoDaysAgo(2) },
      });
      expect([capped.status, capped.body.detail]).toEqual([
        429,
        'This team already has 2 batch export backfills running. Wait for some to finish or cancel them before creating more.',
      ]);
      const fast = await rest(upstream, 'PATCH', `${EXPORTS}/${S3}/`, {
        json: { interval: 'every 5 minutes' },
      });
      expect([fast.status, fast.body.interval]).toEqual([200, 'every 5 minutes']);
    } finally {
      await upstream.close();
    }
  });
});
