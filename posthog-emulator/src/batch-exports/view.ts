// Batch exports, runs and backfills as PostHog's serializers answer them
// (products/batch_exports/backend/presentation/views/batch_export/: BatchExportSerializer in
// exports.py at 0551d5e, BatchExportDestinationSerializer in destinations.py at 475d263,
// BatchExportRunSerializer in runs.py and BatchExportBackfillSerializer in backfills.py at 7bcde34).
//
// Field order: BatchExportSerializer lists its fields. The run and backfill serializers use
// `fields = "__all__"`, which DRF's ModelSerializer.get_default_field_names orders as the primary
// key, then the declared fields (the run's data_interval_end, the backfill's progress), then the
// model's plain fields in model order, then its foreign keys.
import type { BatchExport, BatchExportBackfill, BatchExportRun } from './model.ts';
import { type BatchExportRecords, intervalMicros, SECRET_FIELDS } from './model.ts';
import { formatTimestamp } from '../dialect.ts';
import type { Store } from '../store.ts';

const stamp = (micros: number | null) => (micros === null ? null : formatTimestamp(micros));

/** BatchExportDestinationSerializer.to_representation: secret keys dropped at any depth. */
export function destinationConfig(store: Store, exp: BatchExport): Record<string, unknown> {
  if (store.leakSecrets) return structuredClone(exp.destination.config);
  const secret = new Set(SECRET_FIELDS[exp.destination.type] ?? []);
  const strip = (d: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(d)
        .filter(([k]) => !secret.has(k))
        .map(([k, v]) => [k, isDict(v) ? strip(v) : v]),
    );
  return strip(exp.destination.config);
}

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** BatchExport.offset_day and offset_hour (properties over interval_offset). */
export function offsets(exp: Pick<BatchExport, 'interval' | 'intervalOffset'>) {
  const offset = exp.intervalOffset;
  const offsetDay = exp.interval === 'week' ? (offset === null ? 0 : Math.floor(offset / 86_400)) : null;
  const offsetHour =
    exp.interval === 'day' || exp.interval === 'week'
      ? offset === null
        ? 0
        : Math.floor(offset / 3600) % 24
      : null;
  return { offset_day: offsetDay, offset_hour: offsetHour };
}

/** The export's runs, newest first (by created_at). */
export function runsOf(store: Store, exportId: string): BatchExportRun[] {
  const records = store.batchExports;
  let index = runIndex.get(records);
  // Runs are only ever added (a cancel changes one in place), so the count says when to rebuild.
  if (!index || index.size !== records.runs.size) {
    const byExport = new Map<string, BatchExportRun[]>();
    for (const run of records.runs.values()) {
      const list = byExport.get(run.batchExportId) ?? [];
      list.push(run);
      byExport.set(run.batchExportId, list);
    }
    for (const list of byExport.values()) list.sort((a, b) => b.createdAtMicros - a.createdAtMicros);
    index = { size: records.runs.size, byExport };
    runIndex.set(records, index);
  }
  return index.byExport.get(exportId) ?? [];
}

/** Each store's runs by export, newest first: a list of exports reads ten of each. */
const runIndex = new WeakMap<BatchExportRecords, { size: number; byExport: Map<string, BatchExportRun[]> }>();

export function serializeBatchExport(store: Store, exp: BatchExport): Record<string, unknown> {
  return {
    id: exp.id,
    team_id: exp.projectId,
    name: exp.name,
    model: exp.model,
    destination: {
      type: exp.destination.type,
      config: destinationConfig(store, exp),
      integration: exp.destination.integration,
    },
    interval: exp.interval,
    paused: exp.paused,
    created_at: formatTimestamp(exp.createdAtMicros),
    last_updated_at: formatTimestamp(exp.lastUpdatedAtMicros),
    last_paused_at: stamp(exp.lastPausedAtMicros),
    start_at: stamp(exp.startAtMicros),
    end_at: stamp(exp.endAtMicros),
    // BatchExport.latest_runs: the 10 newest by created_at, in every list row too.
    latest_runs: runsOf(store, exp.id).slice(0, 10).map(serializeRun),
    hogql_query: exp.hogqlQuery,
    hogql_modifiers: exp.hogqlModifiers,
    primary_key: exp.primaryKey,
    version_key: exp.versionKey,
    incremental_mode: exp.incrementalMode,
    schema: exp.schema,
    filters: exp.filters,
    timezone: exp.timezone,
    ...offsets(exp),
  };
}

export function serializeRun(run: BatchExportRun): Record<string, unknown> {
  return {
    id: run.id,
    data_interval_end: formatTimestamp(run.dataIntervalEndMicros),
    status: run.status,
    records_completed: run.recordsCompleted,
    records_failed: run.recordsFailed,
    latest_error: run.latestError,
    data_interval_start: stamp(run.dataIntervalStartMicros),
    cursor: run.cursor,
    created_at: formatTimestamp(run.createdAtMicros),
    finished_at: stamp(run.finishedAtMicros),
    last_updated_at: formatTimestamp(run.lastUpdatedAtMicros),
    records_total_count: run.recordsTotalCount,
    bytes_exported: run.bytesExported,
    batch_export: run.batchExportId,
    batch_export_on_demand: null,
    backfill: run.backfillId,
  };
}

export function serializeBackfill(store: Store, backfill: BatchExportBackfill): Record<string, unknown> {
  return {
    id: backfill.id,
    progress: progress(store, backfill),
    start_at: stamp(backfill.startAtMicros),
    end_at: stamp(backfill.endAtMicros),
    status: backfill.status,
    created_at: formatTimestamp(backfill.createdAtMicros),
    finished_at: stamp(backfill.finishedAtMicros),
    last_updated_at: formatTimestamp(backfill.lastUpdatedAtMicros),
    total_records_count: backfill.totalRecordsCount,
    adjusted_start_at: stamp(backfill.adjustedStartAtMicros),
    team: backfill.projectId,
    batch_export: backfill.batchExportId,
  };
}

/** BatchExportBackfill.total_expected_runs. */
function totalExpectedRuns(store: Store, b: BatchExportBackfill): number | null {
  const start = b.adjustedStartAtMicros ?? b.startAtMicros;
  if (start === null) return 1;
  if (b.totalRecordsCount === 0) return 0;
  let end = b.endAtMicros;
  if (end === null && b.finishedAtMicros !== null) end = b.finishedAtMicros;
  else if (end === null && b.status === 'Running') end = store.nowMicros();
  else if (end === null) return null;
  const exp = store.batchExports.exports.get(b.batchExportId)!;
  return Math.ceil((end - start) / intervalMicros(exp.interval));
}

/** BatchExportBackfillSerializer.get_progress. */
function progress(store: Store, b: BatchExportBackfill) {
  if (b.status === 'Completed') {
    const total = totalExpectedRuns(store, b);
    return { total_runs: total, finished_runs: total, progress: 1.0 };
  }
  if (b.status !== 'Running' && b.status !== 'Starting') return null;
  let total = totalExpectedRuns(store, b);
  if (!total) return null;
  if (b.startAtMicros === null && b.adjustedStartAtMicros === null) return null;
  const finished = [...store.batchExports.runs.values()].filter(
    (r) => r.backfillId === b.id && (r.status === 'Completed' || r.status === 'Failed'),
  ).length;
  total = Math.max(total, finished);
  return { total_runs: total, finished_runs: finished, progress: pythonRound1(finished / total) };
}

/** Python's round(x, 1): exact decimal rounding, an exact binary tie (x.25, x.75) to the even digit. */
function pythonRound1(x: number): number {
  if (Number.isInteger(x * 4) && !Number.isInteger(x * 10)) {
    const down = Math.floor(x * 10);
    return (down % 2 === 0 ? down : down + 1) / 10;
  }
  return Number(x.toFixed(1));
}
