// The 2026 dialect's batch export writes (PostHog's exports.py, BatchExportSerializer and
// BatchExportViewSet): create with its validation and the feature-flag 403s, PATCH merging the
// destination's config (secrets kept), PUT, soft delete, pause/unpause, and the activity they log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { EXPORT_FIELDS, EXPORTS, exportId, newS3, POSTGRES, S3 } from './batch-export-fixtures.ts';
import { rest } from './rest.ts';

describe('batch export writes, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('creates an export (201), with the defaults, and logs its creation', async () => {
    const { status, body } = await rest(upstream, 'POST', EXPORTS, { json: newS3() });
    expect(status).toBe(201);
    expect(Object.keys(body)).toEqual(EXPORT_FIELDS);
    expect(body).toMatchObject({
      name: 'New S3',
      model: 'events',
      interval: 'hour',
      paused: false,
      timezone: 'UTC',
      latest_runs: [],
      offset_day: null,
      offset_hour: null,
    });
    expect(body.destination).toEqual({
      type: 'AwsS3',
      config: { bucket_name: 'b', region: 'us-east-1', prefix: 'p/', legacy_parquet_extension: false },
      integration: 1,
    });
    const entry = upstream.store.activity.at(-1)!;
    expect(entry).toMatchObject({ scope: 'BatchExport', activity: 'created', item_id: body.id, userId: 1 });
    expect(entry.detail).toEqual({
      name: "'New S3' (AwsS3)",
      short_id: null,
      type: null,
      changes: null,
      trigger: null,
      context: {
        name: 'New S3',
        destination_type: 'AwsS3',
        interval: 'hour',
        created_by_user_id: '1',
        created_by_user_email: 'ada@example.com',
        created_by_user_name: 'Ada Lovelace',
      },
    });
    expect((await rest(upstream, 'GET', EXPORTS)).body.count).toBe(7);
  });

  it.each([
    [
      { destination: { type: 'Postgres', config: { database: 'd' } } },
      'destination',
      'Integration is required for Postgres batch exports',
    ],
    [
      { destination: { type: 'BigQuery', config: { dataset_id: 'd' } } },
      'destination',
      'Integration is required for BigQuery batch exports',
    ],
    [
      { destination: { type: 'AwsS3', config: { bucket_name: 'b', region: 'r', prefix: 'p' } } },
      'destination',
      'Integration is required for AwsS3 batch exports',
    ],
    [
      { destination: { type: 'BigQuery', integration_id: 1, config: { dataset_id: 'd' } } },
      'destination',
      'Integration is not a Google Cloud service account integration.',
    ],
    [
      {
        destination: {
          type: 'AwsS3',
          integration_id: 8,
          config: { bucket_name: 'b', region: 'r', prefix: 'p' },
        },
      },
      'destination',
      "Integration provided is not an AWS S3 integration (got kind='s3-compatible')",
    ],
    [
      {
        destination: {
          type: 'AwsS3',
          integration_id: 1,
          config: { bucket_name: ' ', region: 'r', prefix: 'p' },
        },
      },
      'destination',
      "The following inputs are empty: ['bucket_name']",
    ],
    [
      {
        destination: {
          type: 'AwsS3',
          integration_id: 1,
          config: { bucket_name: 'b', region: 'r', prefix: 'p', compression: 'zstd' },
        },
      },
      'destination',
      "Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']",
    ],
    [
      { destination: { type: 'AwsS3', integration_id: 1, config: { bucket_name: 'b' } } },
      'destination__non_field_errors',
      "Configuration missing required field: 'region'",
    ],
    [
      { destination: { type: 'AwsS3', integration_id: 99, config: {} } },
      'destination__integration_id',
      'Invalid pk "99" - object does not exist.',
    ],
    [{ destination: { type: 'Kafka', config: {} } }, 'destination__type', '"Kafka" is not a valid choice.'],
    [{ name: '' }, 'name', 'This field may not be blank.'],
    [
      { destination: 'AwsS3' },
      'destination__non_field_errors',
      'Invalid data. Expected a dictionary, but got str.',
    ],
    [{ interval: 'month' }, 'interval', '"month" is not a valid choice.'],
    [
      { interval: 'day', offset_day: 2 },
      'offset_day',
      'offset_day is not applicable for non-weekly intervals',
    ],
    [{ offset_hour: 3 }, 'offset_hour', 'offset_hour is not applicable for non-daily/weekly intervals'],
    [{ interval: 'week', offset_day: 7 }, 'offset_day', 'Ensure this value is less than or equal to 6.'],
    [
      { model: 'persons', filters: [{ key: '$browser', type: 'event' }] },
      'filters',
      "'filters' is only supported for 'events' not 'persons' model",
    ],
    [
      { hogql_query: 'SELECT 1' },
      'hogql_query',
      "'hogql_query' is only supported for 'hogql' not 'events' model",
    ],
  ])('refuses %j: 400 on %s', async (change, attr, detail) => {
    const answer = await rest(upstream, 'POST', EXPORTS, { json: newS3(change) });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'validation_error', attr, detail });
  });

  // The legacy type is no choice since migration 0010_alter_batchexportdestination_type@88c5eef.
  it('refuses the legacy S3 type, and asks for every required field', async () => {
    const legacy = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({
        destination: {
          type: 'S3',
          integration_id: 1,
          config: { bucket_name: 'b', region: 'r', prefix: 'p' },
        },
      }),
    });
    expect([legacy.status, legacy.body.attr, legacy.body.detail]).toEqual([
      400,
      'destination__type',
      '"S3" is not a valid choice.',
    ]);
    const empty = await rest(upstream, 'POST', EXPORTS, { json: {} });
    expect(empty.body).toEqual({
      type: 'validation_error',
      code: 'required',
      detail: 'This field is required.',
      attr: 'name',
    });
  });

  it("refuses sub-hour intervals and the hogql model with 403 unless the team's flag is on", async () => {
    const fast = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({ name: '', interval: 'every 5 minutes' }),
    });
    expect([fast.status, fast.body.type, fast.body.detail]).toEqual([
      403,
      'authentication_error',
      'Higher frequency batch exports are not enabled for this team.',
    ]);
    const hogql = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({ model: 'hogql', hogql_query: 'SELECT event FROM events' }),
    });
    expect([hogql.status, hogql.body.detail]).toEqual([
      403,
      'HogQL batch exports are not enabled for this team.',
    ]);
    const workflows = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({ destination: { type: 'Workflows', config: { hog_function_id: 'f' } } }),
    });
    expect([workflows.status, workflows.body.detail]).toEqual([
      403,
      'Backfilling Workflows is not enabled for this team.',
    ]);
    Object.assign(upstream.store.batchExports.settings, { highFrequency: true, hogql: true });
    expect(
      (await rest(upstream, 'POST', EXPORTS, { json: newS3({ interval: 'every 5 minutes' }) })).status,
    ).toBe(201);
    const noQuery = await rest(upstream, 'POST', EXPORTS, { json: newS3({ model: 'hogql' }) });
    expect([noQuery.status, noQuery.body.attr, noQuery.body.detail]).toEqual([
      400,
      'hogql_query',
      "'hogql_query' is required when 'model' is 'hogql'",
    ]);
    const query = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({ model: 'hogql', hogql_query: 'SELECT event FROM events' }),
    });
    expect([query.status, query.body.model, query.body.hogql_query]).toEqual([
      201,
      'hogql',
      'SELECT event FROM events',
    ]);
  });

  it('PATCH merges destination.config, keeping the secrets left out, and logs what changed', async () => {
    const patched = await rest(upstream, 'PATCH', `${EXPORTS}${POSTGRES}/`, {
      json: {
        name: 'Postgres (renamed)',
        destination: { type: 'Postgres', config: { table_name: 'events_v2' } },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.destination.config.table_name).toBe('events_v2');
    expect(patched.body.destination.config).not.toHaveProperty('password');
    const stored = upstream.store.batchExports.exports.get(POSTGRES)!;
    expect(stored.destination.config).toMatchObject({
      user: 'pg-seed-user',
      password: 'pg-seed-password',
      table_name: 'events_v2',
    });
    const entry = upstream.store.activity.at(-1)!;
    expect(entry).toMatchObject({ scope: 'BatchExport', activity: 'updated', item_id: POSTGRES });
    expect((entry.detail as { changes: unknown }).changes).toEqual([
      {
        type: 'BatchExport',
        action: 'changed',
        field: 'name',
        before: 'Postgres warehouse',
        after: 'Postgres (renamed)',
      },
    ]);
  });

  it('refuses to change the model or the destination type, and PUT asks for every required field', async () => {
    const model = await rest(upstream, 'PATCH', `${EXPORTS}${S3}/`, { json: { model: 'persons' } });
    expect([model.status, model.body.attr, model.body.detail]).toEqual([
      400,
      'model',
      'Changing models is not supported. Create a new batch export instead.',
    ]);
    const type = await rest(upstream, 'PATCH', `${EXPORTS}${S3}/`, {
      json: { destination: { type: 'BigQuery', integration_id: 2, config: {} } },
    });
    expect(type.body.detail).toBe(
      "Cannot change destination type from 'AwsS3' to 'BigQuery'. Delete this batch export and create a new one with the new destination type.",
    );
    const put = await rest(upstream, 'PUT', `${EXPORTS}${S3}/`, { json: { name: 'x' } });
    expect([put.status, put.body.attr, put.body.code]).toEqual([400, 'destination', 'required']);
  });

  it('keeps a legacy S3 export patchable but for its destination, whose type is no choice any more', async () => {
    const legacy = exportId(6);
    const renamed = await rest(upstream, 'PATCH', `${EXPORTS}${legacy}/`, { json: { name: 'Old S3' } });
    expect([renamed.status, renamed.body.name, renamed.body.destination.type]).toEqual([200, 'Old S3', 'S3']);
    const config = await rest(upstream, 'PATCH', `${EXPORTS}${legacy}/`, {
      json: { destination: { type: 'S3', config: { prefix: 'new/' } } },
    });
    expect([config.status, config.body.attr, config.body.detail]).toEqual([
      400,
      'destination__type',
      '"S3" is not a valid choice.',
    ]);
  });

  it('deletes softly (204), then answers 404 and lists it no more', async () => {
    const deleted = await rest(upstream, 'DELETE', `${EXPORTS}${S3}/`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await rest(upstream, 'GET', `${EXPORTS}${S3}/`)).status).toBe(404);
    expect((await rest(upstream, 'DELETE', `${EXPORTS}${S3}/`)).status).toBe(404);
    expect((await rest(upstream, 'GET', EXPORTS)).body.count).toBe(5);
    expect(upstream.store.batchExports.exports.get(S3)!.deleted).toBe(true);
    const backfills = [...upstream.store.batchExports.backfills.values()].filter(
      (b) => b.batchExportId === S3,
    );
    expect(backfills.filter((b) => b.status === 'Running' || b.status === 'Starting')).toEqual([]);
    expect(backfills.filter((b) => b.status === 'Cancelled').length).toBe(2);
    const entry = upstream.store.activity.at(-1)!;
    expect(entry).toMatchObject({ scope: 'BatchExport', activity: 'updated', item_id: S3 });
  });

  it('pauses and unpauses, logging each change once', async () => {
    const before = upstream.store.activity.length;
    expect((await rest(upstream, 'POST', `${EXPORTS}${S3}/pause/`)).body).toEqual({ paused: true });
    const paused = await rest(upstream, 'GET', `${EXPORTS}${S3}/`);
    expect(paused.body.paused).toBe(true);
    expect(paused.body.last_paused_at).not.toBeNull();
    expect((await rest(upstream, 'POST', `${EXPORTS}${S3}/pause/`)).body).toEqual({ paused: true });
    expect(upstream.store.activity.length).toBe(before + 1);
    const fields = (upstream.store.activity.at(-1)!.detail as { changes: { field: string }[] }).changes.map(
      (c) => c.field,
    );
    expect(fields).toEqual(['enabled', 'last_paused_at']);
    const bad = await rest(upstream, 'POST', `${EXPORTS}${S3}/unpause/`, { json: { backfill: 'maybe' } });
    expect([bad.status, bad.body.attr, bad.body.detail]).toEqual([
      400,
      'backfill',
      'Must be a valid boolean.',
    ]);
    const unpaused = await rest(upstream, 'POST', `${EXPORTS}${S3}/unpause/`, { json: { backfill: false } });
    expect([unpaused.status, unpaused.body]).toEqual([200, { paused: false }]);
    expect((await rest(upstream, 'GET', `${EXPORTS}${S3}/`)).body.paused).toBe(false);
    expect(upstream.store.activity.length).toBe(before + 2);
    expect((await rest(upstream, 'POST', `${EXPORTS}${exportId(7)}/pause/`)).status).toBe(404);
  });
});
