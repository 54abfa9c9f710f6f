// The runs and backfills the 2026 dialect's batch exports start with: each live export's
// scheduled runs over the 30 days before the store's clock (the newest one Running), and
// backfills over the past year, whose runs re-export data intervals older than those 30 days.
import {
  type BatchExport,
  type BatchExportBackfill,
  type BatchExportRun,
  intervalMicros,
} from './model.ts';
import { seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';

export const EXPORT_ID_KIND = 0x20;
export const RUN_ID_KIND = 0x21;
export const BACKFILL_ID_KIND = 0x22;

const HOUR = 3_600_000_000;
const DAY = 24 * HOUR;

/** The scheduled runs between `from` and `until`, newest last; the newest is Running when `live`. */
export function scheduledRuns(
  exp: BatchExport,
  from: number,
  until: number,
  exportIndex: number,
  nextSeq: () => number,
  live: boolean,
): BatchExportRun[] {
  const step = intervalMicros(exp.interval);
  const offset = (exp.intervalOffset ?? 0) * 1_000_000;
  const ends: number[] = [];
  for (let end = Math.floor((until - offset) / step) * step + offset; end > from; end -= step)
    ends.unshift(end);
  return ends.map((end, n) => {
    const last = live && n === ends.length - 1;
    const status = last ? 'Running' : runStatus(n);
    const created = end + (n % 5) * 60_000_000 + exportIndex * 1_000 + 7;
    return {
      ...runRecord(nextSeq(), exp.id, end - step, end, created, status, n),
      backfillId: null,
    };
  });
}

function runStatus(n: number): string {
  if (n % 17 === 3) return 'Failed';
  if (n % 23 === 5) return 'FailedRetryable';
  if (n % 29 === 7) return 'Cancelled';
  return 'Completed';
}

export function runRecord(
  seq: number,
  exportId: string,
  start: number,
  end: number,
  created: number,
  status: string,
  n: number,
): BatchExportRun {
  const done = status !== 'Running' && status !== 'Starting';
  const records = done ? ((n * 7919) % 5_000) + 100 : null;
  return {
    id: seededUuid(RUN_ID_KIND, seq),
    batchExportId: exportId,
    status,
    recordsCompleted: records,
    recordsFailed: done ? 0 : null,
    latestError: status.startsWith('Failed')
      ? 'ClientError: An error occurred (AccessDenied) when calling the PutObject operation'
      : null,
    dataIntervalStartMicros: start,
    dataIntervalEndMicros: end,
    cursor: null,
    createdAtMicros: created,
    finishedAtMicros: done ? created + 90_000_000 : null,
    lastUpdatedAtMicros: done ? created + 90_000_000 : created,
    recordsTotalCount: records,
    backfillId: null,
    bytesExported: records === null ? null : records * 512,
  };
}

/** [export index, status, created (before now), start (before now), runs, finished runs]. */
const BACKFILLS: [number, string, number, number, number, number][] = [
  [1, 'Running', 2 * HOUR, 60 * DAY, 24, 9],
  [1, 'Cancelled', 3 * DAY, 70 * DAY, 24, 0],
  [2, 'Completed', 5 * DAY, 50 * DAY, 3, 3],
  [3, 'Running', HOUR / 2, 40 * DAY, 5, 2],
  [4, 'Failed', 12 * DAY, 90 * DAY, 2, 0],
  [8, 'Completed', 20 * DAY, 45 * DAY, 3, 3],
];

export function seedBackfills(store: Store, now: number, nextSeq: () => number): void {
  const records = store.batchExports;
  let seq = 1;
  const add = (
    exportIndex: number,
    status: string,
    created: number,
    start: number,
    runs: number,
    finished: number,
  ) => {
    const exp = records.exports.get(seededUuid(EXPORT_ID_KIND, exportIndex))!;
    const step = intervalMicros(exp.interval);
    const startAt = Math.floor(start / step) * step;
    const backfill = backfillRecord(
      seededUuid(BACKFILL_ID_KIND, seq++),
      exp,
      startAt,
      startAt + runs * step,
      created,
      status,
    );
    records.backfills.set(backfill.id, backfill);
    for (let n = 0; n < finished + (status === 'Running' ? 1 : 0); n++) {
      const runStatus = n < finished ? 'Completed' : 'Running';
      const run = runRecord(
        nextSeq(),
        exp.id,
        startAt + n * step,
        startAt + (n + 1) * step,
        created + (n + 1) * 60_000_000 + 11,
        runStatus,
        n,
      );
      records.runs.set(run.id, { ...run, backfillId: backfill.id });
    }
  };
  // Fifty-three finished backfills of the hourly export, one every five days back to a year ago,
  // so that its backfill list (50 a page) has a second page.
  for (let k = 0; k < 53; k++)
    add(1, 'Completed', now - (100 + 5 * k) * DAY - 13, now - (110 + 5 * k) * DAY, 24, 0);
  for (const [index, status, created, start, runs, finished] of BACKFILLS)
    add(index, status, now - created + 17, now - start, runs, finished);
}

export function backfillRecord(
  id: string,
  exp: BatchExport,
  start: number | null,
  end: number | null,
  created: number,
  status: string,
): BatchExportBackfill {
  const finished = status === 'Running' || status === 'Starting' ? null : created + 2 * HOUR;
  return {
    id,
    projectId: exp.projectId,
    batchExportId: exp.id,
    startAtMicros: start,
    endAtMicros: end,
    status,
    createdAtMicros: created,
    finishedAtMicros: finished,
    lastUpdatedAtMicros: finished ?? created,
    totalRecordsCount: status === 'Completed' ? 12_345 : null,
    adjustedStartAtMicros: null,
  };
}
