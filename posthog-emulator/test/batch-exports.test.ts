// The 2026 dialect's batch exports (docs/upstream.md, and PostHog's
// products/batch_exports/backend/presentation/views/batch_export/exports.py): the list, retrieve,
// writes as BatchExportSerializer validates them, soft delete, pause/unpause, secrets, scopes, the
// refused logs, the activity; and the 404 of the older dialects. Writes: batch-export-writes.test.ts;
// runs and backfills: batch-export-runs.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import {
  EXPORT_FIELDS,
  EXPORTS,
  exportId,
  POSTGRES,
  REFUSED,
  S3,
  SECRETS,
  WORKFLOWS,
} from './batch-export-fixtures.ts';
import { pathOf, rest } from './rest.ts';

describe.each(['spec', 'posthog'] as const)('batch exports in the %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());

  it("answers Django's 404 on every batch export route, with or without a key", async () => {
    for (const path of [EXPORTS, `${EXPORTS}${S3}/`, `${EXPORTS}${S3}/runs/`, `${EXPORTS}${S3}/backfills/`]) {
      for (const key of ['phx_full', null]) {
        const answer = await rest(upstream, 'GET', path, { key });
        expect([answer.status, answer.body.detail]).toEqual([404, 'Endpoint not found.']);
      }
    }
  });
});

describe('batch exports, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('lists the live exports newest first, without deleted or Workflows ones, in the serializer field order', async () => {
    const { status, body } = await rest(upstream, 'GET', EXPORTS);
    expect(status).toBe(200);
    expect(body.count).toBe(6);
    expect(body.results.map((e: { name: string }) => e.name)).toEqual([
      'Legacy S3 export',
      'S3 archive (paused)',
      'Postgres warehouse',
      'Snowflake persons',
      'BigQuery daily events',
      'S3 hourly events',
    ]);
    expect(Object.keys(body.results[0])).toEqual(EXPORT_FIELDS);
    expect(Object.keys(body.results[0].destination)).toEqual(['type', 'config', 'integration']);
    for (const exp of body.results)
      expect(Object.keys(exp.destination.config).filter((k) => SECRETS.includes(k))).toEqual([]);
    const stored = [...upstream.store.batchExports.exports.values()].map((e) =>
      Object.keys(e.destination.config),
    );
    expect(stored.flat().filter((k) => SECRETS.includes(k)).length).toBeGreaterThan(10);
    const postgres = body.results.find((e: { id: string }) => e.id === POSTGRES);
    expect(postgres.destination.config).toEqual({
      host: 'db.hedgebox.example',
      port: 5432,
      database: 'warehouse',
      schema: 'public',
      table_name: 'events',
      has_self_signed_cert: false,
    });
    expect([postgres.offset_day, postgres.offset_hour]).toEqual([1, 0]);
  });

  it('embeds the ten newest runs in every row', async () => {
    const { body } = await rest(upstream, 'GET', EXPORTS);
    const s3 = body.results.find((e: { id: string }) => e.id === S3);
    expect(s3.latest_runs).toHaveLength(10);
    expect(s3.latest_runs[0].status).toBe('Running');
    const created = s3.latest_runs.map((r: { created_at: string }) => r.created_at);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('pages by limit and offset, as DRF links them', async () => {
    const first = await rest(upstream, 'GET', `${EXPORTS}?limit=4`);
    expect([first.body.count, first.body.results.length, first.body.previous]).toEqual([6, 4, null]);
    expect(pathOf(first.body.next)).toBe(`${EXPORTS}?limit=4&offset=4`);
    const second = await rest(upstream, 'GET', pathOf(first.body.next));
    expect([second.body.results.length, second.body.next]).toEqual([2, null]);
    expect(pathOf(second.body.previous)).toBe(`${EXPORTS}?limit=4`);
  });

  it('retrieves a Workflows export, but not a deleted, unknown or foreign one', async () => {
    const workflows = await rest(upstream, 'GET', `${EXPORTS}${WORKFLOWS}/`);
    expect([workflows.status, workflows.body.destination.type, workflows.body.paused]).toEqual([
      200,
      'Workflows',
      true,
    ]);
    for (const id of [exportId(7), exportId(99), 'not-a-uuid']) {
      const answer = await rest(upstream, 'GET', `${EXPORTS}${id}/`);
      expect([answer.status, answer.body.detail]).toEqual([404, 'Not found.']);
    }
    const foreign = await rest(upstream, 'GET', `/api/projects/1/batch_exports/${exportId(9)}/`);
    expect(foreign.status).toBe(404);
    const own = await rest(upstream, 'GET', `/api/projects/2/batch_exports/${exportId(9)}/`);
    expect(own.body.team_id).toBe(2);
  });

  it('asks batch_export:read to read and batch_export:write to write', async () => {
    for (const key of ['phx_read', 'phx_hog_rw', 'phx_plugin_rw']) {
      const answer = await rest(upstream, 'GET', EXPORTS, { key });
      expect([answer.status, answer.body.detail]).toEqual([
        403,
        "API key missing required scope 'batch_export:read'",
      ]);
    }
    expect((await rest(upstream, 'GET', EXPORTS, { key: 'phx_batch_read' })).status).toBe(200);
    expect((await rest(upstream, 'GET', EXPORTS, { key: 'phx_legacy' })).status).toBe(200);
    for (const [method, path] of [
      ['POST', EXPORTS],
      ['PATCH', `${EXPORTS}${S3}/`],
      ['DELETE', `${EXPORTS}${S3}/`],
      ['POST', `${EXPORTS}${S3}/pause/`],
      ['POST', `${EXPORTS}${S3}/unpause/`],
    ] as const) {
      const answer = await rest(upstream, method, path, { key: 'phx_batch_read', json: {} });
      expect([answer.status, answer.body.detail]).toEqual([
        403,
        "API key missing required scope 'batch_export:write'",
      ]);
    }
  });

  it("refuses an export's and a run's logs to every personal API key", async () => {
    const run = [...upstream.store.batchExports.runs.values()].find((r) => r.batchExportId === S3)!;
    for (const path of [
      `${EXPORTS}${S3}/logs/`,
      `${EXPORTS}${S3}/runs/${run.id}/logs/`,
      `${EXPORTS}${exportId(99)}/logs/`,
    ]) {
      for (const key of ['phx_full', 'phx_legacy', 'phx_batch_read']) {
        const answer = await rest(upstream, 'GET', path, { key });
        expect([answer.status, answer.body.code, answer.body.detail]).toEqual([
          403,
          'permission_denied',
          REFUSED,
        ]);
      }
    }
  });

  it('left a BatchExport activity entry for each seeded export, before the rest of the seeded log', async () => {
    const entries = upstream.store.activity.filter((e) => e.scope === 'BatchExport' && e.projectId === 1);
    expect(entries.filter((e) => e.activity === 'created').map((e) => e.item_id)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map(exportId),
    );
    const others = upstream.store.activity.filter((e) => e.scope !== 'BatchExport');
    const firstOther = Math.min(...others.map((e) => e.createdAtMicros));
    expect(Math.max(...entries.map((e) => e.createdAtMicros))).toBeLessThan(firstOther);
  });
  it('serves the BatchExport entries through the activity log, narrowed by scope', async () => {
    const { status, body } = await rest(
      upstream,
      'GET',
      '/api/projects/1/activity_log/?scope=BatchExport&page_size=50',
    );
    expect(status).toBe(200);
    expect(body.results.map((e: { scope: string }) => e.scope)).toEqual(Array(10).fill('BatchExport'));
    const created = body.results.find(
      (e: { item_id: string; activity: string }) => e.item_id === S3 && e.activity === 'created',
    );
    expect(created.detail.context).toEqual({
      name: 'S3 hourly events',
      destination_type: 'AwsS3',
      interval: 'hour',
      created_by_user_id: '1',
      created_by_user_email: 'ada@example.com',
      created_by_user_name: 'Ada Lovelace',
    });
  });
});

describe('batch exports from an upstream that leaks secrets', () => {
  it('answers the secret config fields', async () => {
    const upstream = await startReferenceUpstream({ dialect: 'posthog-2026', leakSecrets: true });
    try {
      const { body } = await rest(upstream, 'GET', `${EXPORTS}${POSTGRES}/`);
      expect(body.destination.config).toMatchObject({ user: 'pg-seed-user', password: 'pg-seed-password' });
    } finally {
      await upstream.close();
    }
  });
});
