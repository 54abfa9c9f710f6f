// A batch export, its runs and backfills as PostHog 2026 answers them (PostHog's
// products/batch_exports/backend/presentation/views/batch_export/), normalised into records.
// PostHog strips a destination's secret fields from its config on read; the gateway redacts them
// again, at any depth (secret-destination-config.ts), so that an upstream that leaks is not a leak
// here.

import { redactedDestinationConfig } from '../secrets/destination-config.ts';
import { asObject, bool, int, required, str } from './normalize.ts';
import type { BatchExportBackfillRecord, BatchExportRecord, BatchExportRunRecord } from './records.ts';

/** Where a nested id (a run's `batch_export`, `backfill`) is a UUID string or an object. */
const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value.toLowerCase()
    : value && typeof value === 'object'
      ? str((value as { id?: unknown }).id)
      : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function normalizeBatchExport(raw: unknown, projectId: string): BatchExportRecord {
  const w = asObject(raw);
  const uuid = required(str(w.id)).toLowerCase();
  const destination = w.destination && typeof w.destination === 'object' ? asObject(w.destination) : {};
  const destinationType = str(destination.type) ?? 'unknown';
  const runs = Array.isArray(w.latest_runs) ? w.latest_runs : [];
  return {
    __typename: 'BatchExport',
    projectId,
    uuid,
    teamId: int(w.team_id),
    name: str(w.name),
    model: str(w.model),
    destinationType,
    destinationConfig: redactedDestinationConfig(destination.config),
    integrationId:
      int(destination.integration) ?? int((destination.integration as { id?: unknown } | null)?.id) ?? null,
    interval: str(w.interval) ?? '',
    paused: bool(w.paused) ?? false,
    createdAt: str(w.created_at),
    updatedAt: str(w.last_updated_at),
    lastPausedAt: str(w.last_paused_at),
    startAt: str(w.start_at),
    endAt: str(w.end_at),
    timezone: str(w.timezone),
    offsetDay: int(w.offset_day),
    offsetHour: int(w.offset_hour),
    hogqlQuery: str(w.hogql_query),
    filters: w.filters ?? null,
    latestRuns: runs.slice(0, 10).map((run) => normalizeBatchExportRun(run, projectId, uuid)),
  };
}

export function normalizeBatchExportRun(
  raw: unknown,
  projectId: string,
  exportUuid: string,
): BatchExportRunRecord {
  const w = asObject(raw);
  return {
    __typename: 'BatchExportRun',
    projectId,
    exportUuid: idOf(w.batch_export) ?? exportUuid,
    uuid: required(str(w.id)).toLowerCase(),
    status: str(w.status) ?? 'unknown',
    recordsCompleted: int(w.records_completed),
    recordsFailed: int(w.records_failed),
    recordsTotalCount: int(w.records_total_count),
    bytesExported: num(w.bytes_exported),
    latestError: str(w.latest_error),
    dataIntervalStart: str(w.data_interval_start),
    dataIntervalEnd: str(w.data_interval_end),
    createdAt: str(w.created_at),
    finishedAt: str(w.finished_at),
    updatedAt: str(w.last_updated_at),
    backfillUuid: idOf(w.backfill),
  };
}

export function normalizeBatchExportBackfill(
  raw: unknown,
  projectId: string,
  exportUuid: string,
): BatchExportBackfillRecord {
  const w = asObject(raw);
  const progress = w.progress && typeof w.progress === 'object' ? asObject(w.progress) : null;
  return {
    __typename: 'BatchExportBackfill',
    projectId,
    exportUuid: idOf(w.batch_export) ?? exportUuid,
    uuid: required(str(w.id)).toLowerCase(),
    status: str(w.status) ?? 'unknown',
    startAt: str(w.start_at),
    endAt: str(w.end_at),
    createdAt: str(w.created_at),
    finishedAt: str(w.finished_at),
    totalRecordsCount: int(w.total_records_count),
    progress: progress && {
      totalRuns: int(progress.total_runs),
      finishedRuns: int(progress.finished_runs),
      progress: num(progress.progress),
    },
  };
}
