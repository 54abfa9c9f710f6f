// The batch exports the 2026 dialect starts with. In project 1: one export of each common
// destination type (AwsS3, BigQuery, Snowflake, Postgres with inline credentials), a paused
// one, a legacy `S3` one, a soft-deleted Redshift one and a `Workflows` one (a hog function's
// backfill engine, hidden from the list); one in project 2. Runs cover the 30 days before the
// store's clock (an hourly export has 720, so its 7-day window alone holds 168), backfills are
// spread over the year (two Running), and each export's creation left its activity entry, dated
// before the rest of the seeded activity so the newest pages of the log stay as they were.
import { batchExportChanges, logBatchExportActivity } from './activity.ts';
import { EXPORT_ID_KIND, scheduledRuns, seedBackfills } from './history.ts';
import type { BatchExport } from './model.ts';
import { microsOf, seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';

const HOUR = 3_600_000_000;
const DAY = 24 * HOUR;
const CREATED_FROM = microsOf('2025-02-01T10:00:00Z');
const PAUSED_AT = microsOf('2025-02-20T12:00:00Z') + 3;
const DELETED_AT = microsOf('2025-02-25T12:00:00Z') + 5;

type ExportSeed = Pick<BatchExport, 'name' | 'model' | 'interval' | 'destination'> &
  Partial<Pick<BatchExport, 'paused' | 'deleted' | 'intervalOffset' | 'projectId' | 'createdBy'>>;

const s3Config = (n: number) => ({
  bucket_name: `hedgebox-events-${n}`,
  region: 'eu-west-1',
  prefix: 'posthog/events/',
  compression: 'gzip',
  file_format: 'JSONLines',
  aws_access_key_id: `AKIASEED0000000${n}`,
  aws_secret_access_key: `s3-batch-secret-${n}`,
});

/** In id order: export n has the id seededUuid(EXPORT_ID_KIND, n). */
const EXPORTS: ExportSeed[] = [
  {
    name: 'S3 hourly events',
    model: 'events',
    interval: 'hour',
    destination: { type: 'AwsS3', config: s3Config(1), integration: 1 },
  },
  {
    name: 'BigQuery daily events',
    model: 'events',
    interval: 'day',
    destination: {
      type: 'BigQuery',
      integration: 2,
      config: {
        project_id: 'hedgebox-analytics',
        dataset_id: 'posthog',
        table_id: 'events',
        use_json_type: true,
        private_key: '-----BEGIN PRIVATE KEY-----\\nbq-seed-secret\\n-----END PRIVATE KEY-----',
        private_key_id: 'bq-key-id-secret',
        client_email: 'exporter@hedgebox-analytics.iam.gserviceaccount.com',
        token_uri: 'https://oauth2.googleapis.com/token',
      },
    },
  },
  {
    name: 'Snowflake persons',
    model: 'persons',
    interval: 'day',
    intervalOffset: 2 * 3600,
    createdBy: 2,
    destination: {
      type: 'Snowflake',
      integration: 3,
      config: {
        account: 'hedgebox-eu',
        database: 'ANALYTICS',
        warehouse: 'EXPORTS_WH',
        schema: 'POSTHOG',
        table_name: 'persons',
        role: null,
        user: 'snowflake-seed-user',
        password: 'snowflake-seed-password',
      },
    },
  },
  {
    name: 'Postgres warehouse',
    model: 'events',
    interval: 'week',
    intervalOffset: 1 * 86_400,
    destination: {
      type: 'Postgres',
      integration: null,
      config: {
        host: 'db.hedgebox.example',
        port: 5432,
        database: 'warehouse',
        schema: 'public',
        table_name: 'events',
        has_self_signed_cert: false,
        user: 'pg-seed-user',
        password: 'pg-seed-password',
      },
    },
  },
  {
    name: 'S3 archive (paused)',
    model: 'events',
    interval: 'day',
    paused: true,
    destination: { type: 'AwsS3', config: s3Config(5), integration: 1 },
  },
  {
    name: 'Legacy S3 export',
    model: 'events',
    interval: 'hour',
    destination: { type: 'S3', config: s3Config(6), integration: null },
  },
  {
    name: 'Redshift (deleted)',
    model: 'events',
    interval: 'hour',
    deleted: true,
    destination: {
      type: 'Redshift',
      integration: null,
      config: {
        host: 'redshift.hedgebox.example',
        port: 5439,
        database: 'dev',
        schema: 'public',
        table_name: 'events',
        user: 'rs-seed-user',
        password: 'rs-seed-password',
      },
    },
  },
  {
    // What POST /hog_functions/:id/enable_backfills/ creates: paused, hourly, events.
    name: 'Webhook to ops backfills',
    model: 'events',
    interval: 'hour',
    paused: true,
    destination: { type: 'Workflows', integration: null, config: { hog_function_id: seededUuid(7, 1) } },
  },
  {
    name: 'Staging S3',
    model: 'events',
    interval: 'day',
    projectId: 2,
    destination: { type: 'AwsS3', config: s3Config(9), integration: 9 },
  },
];

/** Integrations by id: project 1 has one of each kind a destination links; 2 and 3 one each. */
const INTEGRATIONS: [number, number, string][] = [
  [1, 1, 'aws-s3'],
  [2, 1, 'google-cloud-service-account'],
  [3, 1, 'snowflake'],
  [4, 1, 'postgresql'],
  [5, 1, 'databricks'],
  [6, 1, 'azure-blob'],
  [7, 1, 'aws-redshift'],
  [8, 1, 's3-compatible'],
  [9, 2, 'aws-s3'],
  [10, 3, 'aws-s3'],
];

export function seedBatchExports(store: Store, nowMicros: number): void {
  const records = store.batchExports;
  for (const [id, projectId, kind] of INTEGRATIONS) records.integrations.set(id, { id, projectId, kind });
  // The last full hour before the clock: the newest run (created minutes after its interval) is past.
  const now = Math.floor(nowMicros / HOUR) * HOUR - HOUR;
  let runSeq = 1;
  EXPORTS.forEach((seed, index) => {
    const created = CREATED_FROM + index * DAY + 2 * index + 1;
    const exp = newExport(seedFor(seed), seededUuid(EXPORT_ID_KIND, index + 1), created);
    records.exports.set(exp.id, exp);
    logBatchExportActivity(store, exp.createdBy, exp, 'created', null, created);
    if (exp.paused && exp.destination.type !== 'Workflows') pauseAt(store, exp, PAUSED_AT + index);
    if (exp.deleted)
      logBatchExportActivity(
        store,
        exp.createdBy,
        exp,
        'updated',
        [change('deleted', false, true)],
        DELETED_AT,
      );
    // Workflows exports run only when backfilled.
    if (exp.destination.type === 'Workflows') return;
    const until = exp.deleted ? DELETED_AT : (exp.lastPausedAtMicros ?? now);
    const from = Math.max(created, until - 30 * DAY);
    for (const run of scheduledRuns(exp, from, until, index, () => runSeq++, !exp.paused && !exp.deleted))
      records.runs.set(run.id, run);
  });
  seedBackfills(store, now, () => runSeq++);
}

const seedFor = (seed: ExportSeed): ExportSeed => ({ projectId: 1, createdBy: 1, ...seed });

/** A new export with the model's defaults. */
export function newExport(fields: ExportSeed, id: string, created: number): BatchExport {
  return {
    id,
    projectId: fields.projectId ?? 1,
    name: fields.name,
    model: fields.model,
    destination: fields.destination,
    interval: fields.interval,
    paused: fields.paused ?? false,
    deleted: fields.deleted ?? false,
    createdAtMicros: created,
    lastUpdatedAtMicros: created,
    lastPausedAtMicros: null,
    startAtMicros: null,
    endAtMicros: null,
    hogqlQuery: null,
    hogqlModifiers: null,
    primaryKey: null,
    versionKey: null,
    incrementalMode: 'APPEND',
    schema: null,
    filters: null,
    timezone: 'UTC',
    intervalOffset: fields.intervalOffset ?? null,
    createdBy: fields.createdBy ?? null,
  };
}

function pauseAt(store: Store, exp: BatchExport, at: number): void {
  const before = { ...exp, paused: false };
  exp.lastPausedAtMicros = at;
  exp.lastUpdatedAtMicros = at;
  logBatchExportActivity(store, exp.createdBy, exp, 'updated', batchExportChanges(before, exp), at);
}

const change = (field: string, before: unknown, after: unknown) => ({
  type: 'BatchExport',
  action: 'changed' as const,
  field,
  before,
  after,
});
