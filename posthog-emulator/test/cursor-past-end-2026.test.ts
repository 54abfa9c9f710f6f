// A cursor read past the end of its list, as DRF's CursorPagination links it
// (rest_framework/pagination.py@6ea95b6, get_previous_link / get_next_link: an empty page
// keeps the link back to the cursor's own position, `if not self.page: position =
// self.previous_position`), under the activity log's TailFollowingCursorPagination
// (posthog/api/advanced_activity_logs/viewset.py@1b10cf8) and the batch export runs' view
// (products/batch_exports/backend/presentation/views/batch_export/runs.py@7bcde34).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const LOG = '/api/projects/1/activity_log/';
/** str() of a Python datetime, as DRF writes a cursor's position. */
const pythonTime = (iso: string) => iso.replace('T', ' ').replace('Z', '+00:00');
const decoded = (link: string) =>
  Buffer.from(new URL(link).searchParams.get('cursor')!, 'base64').toString('ascii');

describe('PostHog 2026: a cursor past the end of its list', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('follows the log to an empty page that still links back to the last entries', async () => {
    let path = `${LOG}?ordering=created_at&follow=true&page_size=1000`;
    let last: { created_at: string } | undefined;
    let beforeLast: { created_at: string } | undefined;
    let empty: { next: string | null; previous: string | null; results: unknown[] } | undefined;
    for (let i = 0; i < 5 && !empty; i++) {
      const { body } = await rest(upstream, 'GET', path);
      if (body.results.length === 0) empty = body;
      else [beforeLast, last] = [body.results.at(-2) ?? last, body.results.at(-1)];
      path = pathOf(body.next);
    }
    expect(empty).toBeDefined();
    expect(empty!.previous).not.toBeNull();
    expect(decoded(empty!.previous!)).toBe(
      new URLSearchParams({ r: '1', p: pythonTime(last!.created_at) }).toString(),
    );
    const back = await rest(upstream, 'GET', pathOf(empty!.previous!));
    // Strictly before the position, as DRF filters a reverse cursor.
    expect(back.body.results.at(-1).created_at).toBe(beforeLast!.created_at);
  });

  it('links forward again from an empty reverse page', async () => {
    const first = await rest(upstream, 'GET', `${LOG}?ordering=created_at&page_size=1`);
    const reverse = Buffer.from(
      new URLSearchParams({ r: '1', p: pythonTime(first.body.results[0].created_at) }).toString(),
    ).toString('base64');
    const { body } = await rest(upstream, 'GET', `${LOG}?ordering=created_at&cursor=${reverse}`);
    expect(body.results).toEqual([]);
    expect(body.previous).toBeNull();
    expect(decoded(body.next)).toBe(
      new URLSearchParams({ p: pythonTime(first.body.results[0].created_at) }).toString(),
    );
  });

  it('links back from an empty page of runs', async () => {
    const exports = await rest(upstream, 'GET', '/api/projects/1/batch_exports/');
    const id = exports.body.results.find((e: { interval: string }) => e.interval === 'hour').id;
    let path = `/api/projects/1/batch_exports/${id}/runs/?after=-30d&ordering=-data_interval_end`;
    let body: { next: string | null; previous: string | null; results: unknown[] } | undefined;
    for (let i = 0; i < 20; i++) {
      body = (await rest(upstream, 'GET', path)).body;
      if (!body!.next) break;
      path = pathOf(body!.next);
    }
    // Past the last page: the cursor after its last run.
    const tail = (body!.results.at(-1) as { data_interval_end: string }).data_interval_end;
    const past = Buffer.from(new URLSearchParams({ p: pythonTime(tail) }).toString()).toString('base64');
    const empty = await rest(
      upstream,
      'GET',
      `/api/projects/1/batch_exports/${id}/runs/?after=-30d&ordering=-data_interval_end&cursor=${past}`,
    );
    expect(empty.body.results).toEqual([]);
    expect(empty.body.next).toBeNull();
    expect(decoded(empty.body.previous)).toBe(
      new URLSearchParams({ r: '1', p: pythonTime(tail) }).toString(),
    );
  });
});
