// Test controls for what PostHog's workers decide, which no API route writes (tests only):
// POST /__control/hog-function-status {id, state}: the hog watcher's state of a function
// (HogFunctionState, products/cdp/backend/models/hog_functions/hog_function.py@026f251: 1 healthy,
// 2 degraded, 3 disabled, 11 and 12 forced; nodejs/src/cdp/services/monitoring/
// hog-watcher.service.ts@c56661c sets it), answered as `status.state` while the function is enabled;
// POST /__control/batch-export-run {batchExportId, status, latestError?}: a run the worker
// finished just now with that BatchExportRun.Status (posthog/batch_exports/models.py@0512fff),
// newest of the export's runs, so `latest_runs` starts with it.
import type { ServerResponse } from 'node:http';
import { RUN_STATUSES } from './batch-exports/model.ts';
import { nextBatchExportUuid } from './batch-exports/routes.ts';
import { send } from './http/send.ts';
import type { UpstreamState } from './state.ts';

const WATCHER_STATES = [1, 2, 3, 11, 12];

export function handleHogFunctionStatusControl(
  state: UpstreamState,
  data: Record<string, unknown>,
  res: ServerResponse,
) {
  const fn = state.store.hogFunctions.get(String(data.id ?? '').toLowerCase());
  if (!fn || fn.deleted) return send(res, { status: 404, json: { detail: 'no such hog function' } });
  if (typeof data.state !== 'number' || !WATCHER_STATES.includes(data.state))
    return send(res, { status: 400, json: { detail: `state is one of ${WATCHER_STATES.join(', ')}` } });
  fn.statusState = data.state;
  return send(res, { status: 200, json: { id: fn.id, state: fn.statusState } });
}

export function handleBatchExportRunControl(
  state: UpstreamState,
  data: Record<string, unknown>,
  res: ServerResponse,
) {
  const { store } = state;
  const exp = store.batchExports.exports.get(String(data.batchExportId ?? '').toLowerCase());
  if (!exp || exp.deleted) return send(res, { status: 404, json: { detail: 'no such batch export' } });
  const status = String(data.status ?? '');
  if (!(RUN_STATUSES as readonly string[]).includes(status))
    return send(res, { status: 400, json: { detail: `status is one of ${RUN_STATUSES.join(', ')}` } });
  const now = store.nowMicros();
  const done = status !== 'Running' && status !== 'Starting';
  const run = {
    id: nextBatchExportUuid(store),
    batchExportId: exp.id,
    status,
    recordsCompleted: status === 'Completed' ? 0 : null,
    recordsFailed: null,
    latestError: typeof data.latestError === 'string' ? data.latestError : null,
    dataIntervalStartMicros: now - 3_600_000_000,
    dataIntervalEndMicros: now,
    cursor: null,
    createdAtMicros: now,
    finishedAtMicros: done ? now : null,
    lastUpdatedAtMicros: now,
    recordsTotalCount: null,
    backfillId: null,
    bytesExported: null,
  };
  store.batchExports.runs.set(run.id, run);
  return send(res, { status: 201, json: { id: run.id, status: run.status } });
}
