// Batch exports as PostHog stores them (products/batch_exports/backend/models/batch_export.py at
// 05fe462): an export with its destination, its runs (one per data interval) and its backfills.
// Timestamps are microseconds since the epoch, as everywhere in the store.

/** BatchExportDestination.Destination: the legacy `S3` alias still exists on old rows. */
export const DESTINATION_TYPES = [
  'S3',
  'AwsS3',
  'S3Compatible',
  'Snowflake',
  'Postgres',
  'Redshift',
  'BigQuery',
  'Databricks',
  'AzureBlob',
  'Workflows',
  'HTTP',
  'NoOp',
  'FileDownload',
] as const;
/** The choices a write may name: migration 0010_alter_batchexportdestination_type@88c5eef dropped `S3`. */
export const WRITABLE_TYPES = DESTINATION_TYPES.filter((type) => type !== 'S3');

/** BatchExportDestination.secret_fields: removed from `config`, at any depth, on every answer. */
export const SECRET_FIELDS: Record<string, readonly string[]> = {
  S3: ['aws_access_key_id', 'aws_secret_access_key'],
  AwsS3: ['aws_access_key_id', 'aws_secret_access_key'],
  S3Compatible: ['aws_access_key_id', 'aws_secret_access_key'],
  Snowflake: ['user', 'password', 'private_key', 'private_key_passphrase'],
  Postgres: ['user', 'password'],
  Redshift: ['user', 'password', 'aws_access_key_id', 'aws_secret_access_key'],
  BigQuery: ['private_key', 'private_key_id', 'client_email', 'token_uri'],
  Databricks: [],
  AzureBlob: [],
  HTTP: ['token'],
  NoOp: [],
  Workflows: [],
  FileDownload: [],
};

/** BATCH_EXPORT_INTERVALS; the two sub-hour ones are behind `high-frequency-batch-exports`. */
export const INTERVALS = ['hour', 'day', 'week', 'every 5 minutes', 'every 15 minutes'] as const;
export const MODELS = ['events', 'persons', 'sessions', 'hogql'] as const;

export const RUN_STATUSES = [
  'Cancelled',
  'Completed',
  'ContinuedAsNew',
  'Failed',
  'FailedRetryable',
  'FailedBilling',
  'Terminated',
  'TimedOut',
  'Running',
  'Starting',
] as const;
export const BACKFILL_STATUSES = RUN_STATUSES.filter((s) => s !== 'FailedBilling');

/** BatchExport.interval_time_delta, in microseconds. */
export function intervalMicros(interval: string): number {
  const hour = 3_600_000_000;
  if (interval === 'hour') return hour;
  if (interval === 'day') return 24 * hour;
  if (interval === 'week') return 7 * 24 * hour;
  const minutes = /^every (\d+) minutes$/.exec(interval);
  return minutes ? Number(minutes[1]) * 60_000_000 : hour;
}

export interface BatchExportDestination {
  type: string;
  /** As stored: secrets included (the serializer strips them). */
  config: Record<string, unknown>;
  /** The linked Integration's id, or null (inline credentials, or none needed). */
  integration: number | null;
}

export interface BatchExport {
  /** A UUID. */
  id: string;
  projectId: number;
  name: string;
  model: string | null;
  destination: BatchExportDestination;
  interval: string;
  paused: boolean;
  deleted: boolean;
  createdAtMicros: number;
  lastUpdatedAtMicros: number;
  lastPausedAtMicros: number | null;
  startAtMicros: number | null;
  endAtMicros: number | null;
  hogqlQuery: string | null;
  hogqlModifiers: Record<string, unknown> | null;
  primaryKey: string[] | null;
  versionKey: string[] | null;
  incrementalMode: string;
  schema: unknown;
  filters: unknown;
  timezone: string;
  /** Seconds into the interval (offset_day/offset_hour are derived from it). */
  intervalOffset: number | null;
  /** The user whose write created it (the activity context's created_by_*). */
  createdBy: number | null;
}

export interface BatchExportRun {
  id: string;
  batchExportId: string;
  status: string;
  recordsCompleted: number | null;
  recordsFailed: number | null;
  latestError: string | null;
  dataIntervalStartMicros: number | null;
  dataIntervalEndMicros: number;
  cursor: string | null;
  createdAtMicros: number;
  finishedAtMicros: number | null;
  lastUpdatedAtMicros: number;
  recordsTotalCount: number | null;
  backfillId: string | null;
  bytesExported: number | null;
}

export interface BatchExportBackfill {
  id: string;
  projectId: number;
  batchExportId: string;
  startAtMicros: number | null;
  endAtMicros: number | null;
  status: string;
  createdAtMicros: number;
  finishedAtMicros: number | null;
  lastUpdatedAtMicros: number;
  totalRecordsCount: number | null;
  adjustedStartAtMicros: number | null;
}

/** An Integration a destination may link (posthog/models/integration.py kinds, as the help texts name them). */
export interface BatchExportIntegration {
  id: number;
  projectId: number;
  kind: string;
}

/**
 * The team's feature flags batch exports consult (all off, as for most teams), and the
 * BATCH_EXPORT_MAX_CONCURRENT_BACKFILLS_PER_TEAM setting (its value is not in PostHog's source
 * we read; 3 here, a test may change it).
 */
export interface BatchExportSettings {
  highFrequency: boolean;
  hogql: boolean;
  workflows: boolean;
  earliestBackfill: boolean;
  maxConcurrentBackfills: number;
}

export const defaultBatchExportSettings = (): BatchExportSettings => ({
  highFrequency: false,
  hogql: false,
  workflows: false,
  earliestBackfill: false,
  maxConcurrentBackfills: 3,
});

/** The store's batch export records (the 2026 dialect only; empty elsewhere). */
export class BatchExportRecords {
  readonly exports = new Map<string, BatchExport>();
  readonly runs = new Map<string, BatchExportRun>();
  readonly backfills = new Map<string, BatchExportBackfill>();
  readonly integrations = new Map<number, BatchExportIntegration>();
  readonly settings: BatchExportSettings = defaultBatchExportSettings();
  /** Sequence for the ids of records written after the seed. */
  nextId = 1;
}
