// /api/projects/:project_id/batch_exports/:id/runs/ as PostHog serves it in late 2026:
// BatchExportRunViewSet in products/batch_exports/backend/presentation/views/batch_export/runs.py
// at 7bcde34. Every action (list, retrieve, retry, cancel) reads the same queryset: the runs of
// that export id, created in the last 7 days unless `after`/`before` say otherwise (or, ordered by
// data_interval_start, whose data interval lies in `start`..`end`), so an older run is 404.
// Cursor pages of 100. `logs` is refused to personal API keys by the route table.
import { notFound, validationError } from '../http/api-error.ts';
import { backfillRecord } from './history.ts';
import { type BatchExportRun, RUN_STATUSES } from './model.ts';
import { orderedCursorPage, orderingOf } from './paging.ts';
import { exceptionsHogError } from './readers.ts';
import { nextBatchExportUuid } from './routes.ts';
import { runsOf, serializeRun } from './view.ts';
import { uuidLookup } from '../django-uuid.ts';
import { fieldError } from '../hog-functions/errors.ts';
import { relativeDateParse } from '../relative-date.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

const RUNS_PAGE_SIZE = 100;
const ORDERING = {
  created_at: (r: BatchExportRun) => r.createdAtMicros,
  data_interval_start: (r: BatchExportRun) => r.dataIntervalStartMicros,
};

/** BatchExportRunListQuerySerializer: each `status` must be one of BatchExportRun.Status. */
function statusFilter(query: URLSearchParams): string[] {
  const statuses = query.getAll('status');
  statuses.forEach((s, i) => {
    if (!(RUN_STATUSES as readonly string[]).includes(s))
      throw exceptionsHogError({
        status: { [i]: [fieldError(`"${s}" is not a valid choice.`, 'invalid_choice')] },
      });
  });
  return statuses;
}

/** safely_get_queryset: the export's runs in the window, as every action of the viewset sees them. */
function windowedRuns(ctx: RouteContext): BatchExportRun[] {
  const { store, project, url, params } = ctx;
  const q = url.query;
  const statuses = statusFilter(q);
  const now = store.nowMicros();
  const rawOrdering = q.get('ordering');
  const byInterval = rawOrdering === 'data_interval_start' || rawOrdering === '-data_interval_start';
  const from = relativeDateParse((byInterval ? q.get('start') : q.get('after')) || '-7d', now);
  const boundText = byInterval ? q.get('end') : q.get('before');
  const until = boundText ? relativeDateParse(boundText, now) : now;
  // filter(batch_export_id=...): an id uuid.UUID refuses is a 500 (django-uuid.ts).
  const exportId = uuidLookup(params.id);
  const exp = store.batchExports.exports.get(exportId);
  if (!exp || exp.projectId !== project.id) return [];
  return runsOf(store, exportId).filter(
    (r) =>
      r.batchExportId === exportId &&
      (byInterval
        ? (r.dataIntervalStartMicros ?? Number.NEGATIVE_INFINITY) >= from && r.dataIntervalEndMicros <= until
        : r.createdAtMicros >= from && r.createdAtMicros <= until) &&
      (statuses.length === 0 || statuses.includes(r.status)),
  );
}

function requireRun(ctx: RouteContext): BatchExportRun {
  const id = (ctx.params.run ?? '').toLowerCase();
  const run = windowedRuns(ctx).find((r) => r.id === id);
  if (!run) throw notFound();
  return run;
}

// products/batch_exports/backend/presentation/views/batch_export/runs.py, BatchExportRunViewSet.list
export function listRuns(ctx: RouteContext): Reply {
  const ordering = orderingOf(ctx.url.query, ORDERING, '-created_at');
  const page = orderedCursorPage(windowedRuns(ctx), ordering, RUNS_PAGE_SIZE, ctx.url);
  return ok({ ...page, results: page.results.map(serializeRun) });
}

// products/batch_exports/backend/presentation/views/batch_export/runs.py, BatchExportRunViewSet.retrieve
export function retrieveRun(ctx: RouteContext): Reply {
  return ok(serializeRun(requireRun(ctx)));
}

// products/batch_exports/backend/presentation/views/batch_export/runs.py, BatchExportRunViewSet.retry (backfill_export over the run's interval)
export function retryRun(ctx: RouteContext): Reply {
  const { store } = ctx;
  const run = requireRun(ctx);
  const exp = store.batchExports.exports.get(run.batchExportId)!;
  const now = store.nowMicros();
  const backfill = backfillRecord(
    nextBatchExportUuid(store),
    exp,
    run.dataIntervalStartMicros,
    run.dataIntervalEndMicros,
    now,
    'Starting',
  );
  store.batchExports.backfills.set(backfill.id, backfill);
  return ok({ backfill_id: backfill.id }, 201);
}

// products/batch_exports/backend/presentation/views/batch_export/runs.py, BatchExportRunViewSet.cancel
export function cancelRun(ctx: RouteContext): Reply {
  const run = requireRun(ctx);
  if (run.status !== 'Running' && run.status !== 'Starting')
    throw validationError(null, 'invalid_input', `Cannot cancel a run that is in '${run.status}' status`);
  // The workflow is cancelled; its run row ends Cancelled (what the worker records).
  const now = ctx.store.nowMicros();
  run.status = 'Cancelled';
  run.finishedAtMicros = now;
  run.lastUpdatedAtMicros = now;
  return ok({ cancelled: true });
}
