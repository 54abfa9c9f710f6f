// An export id that is not a UUID, under runs/ and backfills/, as PostHog answers it: both viewsets
// filter `batch_export_id=<id>` in safely_get_queryset (runs.py@7bcde34; backfills.py, code-index
// id 70233177325), and create reads BatchExport.objects.get(id=<id>), where Django's UUIDField
// raises its own ValidationError, which drf-exceptions-hog (handler.py@a091521) answers as a bare
// 500. The id is read as Python's uuid.UUID(hex=) reads it: hyphens and case are free.
// The runs' `status` is validated before the filter, so a bad one is still a 400; the permission
// chain runs before either.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { EXPORTS, S3 } from './batch-export-fixtures.ts';
import { rest } from './rest.ts';

const SERVER_ERROR = { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null };
const RUN = '018f0a5e-0021-7000-8000-000000000001';

describe('batch export runs and backfills of a non-UUID export id, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('answers every runs and backfills action a 500', async () => {
    const calls: [string, string][] = [
      ['GET', 'not-a-uuid/runs/'],
      ['GET', `not-a-uuid/runs/${RUN}/`],
      ['POST', `not-a-uuid/runs/${RUN}/retry/`],
      ['POST', `not-a-uuid/runs/${RUN}/cancel/`],
      ['GET', 'not-a-uuid/backfills/'],
      ['GET', `not-a-uuid/backfills/${RUN}/`],
      ['POST', `not-a-uuid/backfills/${RUN}/cancel/`],
      ['POST', 'not-a-uuid/backfills/'],
      ['GET', `${S3.slice(0, -1)}/runs/`],
    ];
    for (const [method, path] of calls) {
      const answer = await rest(upstream, method, `${EXPORTS}${path}`, method === 'POST' ? { json: {} } : {});
      expect([method, path, answer.status, answer.body]).toEqual([method, path, 500, SERVER_ERROR]);
    }
  });

  it('validates the runs’ status first, and checks the key before either', async () => {
    const bad = await rest(upstream, 'GET', `${EXPORTS}not-a-uuid/runs/?status=Done`);
    expect([bad.status, bad.body.attr]).toEqual([400, 'status__0']);
    const refused = await rest(upstream, 'GET', `${EXPORTS}not-a-uuid/runs/`, { key: 'phx_read' });
    expect(refused.status).toBe(403);
  });

  it('reads an id in any form uuid.UUID accepts as the same export', async () => {
    const canonical = await rest(upstream, 'GET', `${EXPORTS}${S3}/runs/`);
    expect(canonical.body.results.length).toBeGreaterThan(0);
    for (const form of [S3.replaceAll('-', ''), S3.toUpperCase()]) {
      const answer = await rest(upstream, 'GET', `${EXPORTS}${form}/runs/`);
      expect([form, answer.status, answer.body.results]).toEqual([form, 200, canonical.body.results]);
    }
    const backfills = await rest(upstream, 'GET', `${EXPORTS}${S3.replaceAll('-', '')}/backfills/`);
    expect(backfills.body.results).toEqual(
      (await rest(upstream, 'GET', `${EXPORTS}${S3}/backfills/`)).body.results,
    );
  });
});
