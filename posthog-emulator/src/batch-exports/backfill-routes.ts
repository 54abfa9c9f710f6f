// /api/projects/:project_id/batch_exports/:id/backfills/ as PostHog serves it in late 2026:
// BatchExportBackfillViewSet and create_backfill in products/batch_exports/backend/presentation/
// views/batch_export/backfills.py at 7bcde34. Cursor pages of 50 (`ordering` created_at or
// start_at); create checks the flag for a backfill from the beginning of time, then the team's
// concurrency cap (a 429 that is not a throttle: no Retry-After), then the dates.
import { ApiError, notFound, validationError } from '../http/api-error.ts';
import { backfillRecord } from './history.ts';
import type { BatchExport, BatchExportBackfill } from './model.ts';
import { orderedCursorPage, orderingOf } from './paging.ts';
import { isoMicros, pyStr } from './readers.ts';
import { nextBatchExportUuid } from './routes.ts';
import { offsets, serializeBackfill } from './view.ts';
import { uuidLookup } from '../django-uuid.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

const BACKFILLS_PAGE_SIZE = 50;
const ORDERING = {
  created_at: (b: BatchExportBackfill) => b.createdAtMicros,
  start_at: (b: BatchExportBackfill) => b.startAtMicros,
};
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** TooManyConcurrentBackfills (an APIException: exceptions_hog types it server_error). */
export const tooManyConcurrentBackfills = (limit: number) =>
  new ApiError(
    429,
    'server_error',
    'too_many_concurrent_backfills',
    `This team already has ${limit} batch export backfills running. Wait for some to finish or cancel them before creating more.`,
  );

const invalid = (detail: string) => validationError(null, 'invalid_input', detail);

/** The viewset's queryset: the backfills of the export id in the URL, in this project. */
function backfillsOf({ store, project, params }: RouteContext): BatchExportBackfill[] {
  // safely_get_queryset's filter(batch_export_id=...): an id uuid.UUID refuses is a 500.
  const id = uuidLookup(params.id);
  return [...store.batchExports.backfills.values()].filter(
    (b) => b.batchExportId === id && b.projectId === project.id,
  );
}

function requireBackfill(ctx: RouteContext): BatchExportBackfill {
  const id = (ctx.params.backfill ?? '').toLowerCase();
  const found = backfillsOf(ctx).find((b) => b.id === id);
  if (!found) throw notFound();
  return found;
}

// products/batch_exports/backend/presentation/views/batch_export/backfills.py, BatchExportBackfillViewSet.list
export function listBackfills(ctx: RouteContext): Reply {
  const ordering = orderingOf(ctx.url.query, ORDERING, '-created_at');
  const page = orderedCursorPage(backfillsOf(ctx), ordering, BACKFILLS_PAGE_SIZE, ctx.url);
  return ok({ ...page, results: page.results.map((b) => serializeBackfill(ctx.store, b)) });
}

// products/batch_exports/backend/presentation/views/batch_export/backfills.py, BatchExportBackfillViewSet.retrieve
export function retrieveBackfill(ctx: RouteContext): Reply {
  return ok(serializeBackfill(ctx.store, requireBackfill(ctx)));
}

// products/batch_exports/backend/presentation/views/batch_export/backfills.py, BatchExportBackfillViewSet.cancel
export function cancelBackfill(ctx: RouteContext): Reply {
  const backfill = requireBackfill(ctx);
  if (backfill.status !== 'Running' && backfill.status !== 'Starting')
    throw invalid(`Cannot cancel a backfill that is in '${backfill.status}' status`);
  // The workflow is cancelled; the backfill ends Cancelled (what the worker records).
  const now = ctx.store.nowMicros();
  backfill.status = 'Cancelled';
  backfill.finishedAtMicros = now;
  backfill.lastUpdatedAtMicros = now;
  return ok({ cancelled: true });
}

// products/batch_exports/backend/presentation/views/batch_export/backfills.py, BatchExportBackfillViewSet.create and create_backfill
export function createBackfill(ctx: RouteContext): Reply {
  const { store, project } = ctx;
  // BatchExport.objects.get(id=..., team_id=...): a deleted export is found too; an id uuid.UUID
  // refuses is a 500.
  const exp = store.batchExports.exports.get(uuidLookup(ctx.params.id));
  if (!exp || exp.projectId !== project.id) throw notFound('BatchExport not found.');
  const startInput = ctx.body.data.start_at ?? null;
  const endInput = ctx.body.data.end_at ?? null;
  const { settings } = store.batchExports;
  if (startInput === null && !settings.earliestBackfill)
    throw invalid('Backfilling from the beginning of time is not enabled for this team.');
  const active = [...store.batchExports.backfills.values()].filter(
    (b) => b.projectId === project.id && (b.status === 'Starting' || b.status === 'Running'),
  ).length;
  if (active >= settings.maxConcurrentBackfills)
    throw tooManyConcurrentBackfills(settings.maxConcurrentBackfills);
  const start = startInput === null ? null : validateDateInput(startInput, exp);
  const end = endInput === null ? null : validateDateInput(endInput, exp);
  const now = store.nowMicros();
  if (start !== null && end !== null) {
    if (start.micros >= end.micros)
      throw invalid("The initial backfill datetime 'start_at' must be before 'end_at'");
    if (end.micros > now) throw invalid(`The provided 'end_at' (${pythonIsoformat(end)}) is in the future`);
  }
  const backfill = backfillRecord(
    nextBatchExportUuid(store),
    exp,
    start?.micros ?? null,
    end?.micros ?? null,
    now,
    'Starting',
  );
  store.batchExports.backfills.set(backfill.id, backfill);
  return ok({ backfill_id: backfill.id }, 201);
}

interface Moment {
  micros: number;
  offsetMinutes: number;
}

/** validate_date_input: dates for daily and weekly exports (on the export's day), datetimes with a zone otherwise. */
function validateDateInput(input: unknown, exp: BatchExport): Moment {
  const text = typeof input === 'string' ? input : pyStr(input);
  const parsed = typeof input === 'string' ? isoMicros(input) : null;
  if (exp.interval === 'day' || exp.interval === 'week') {
    const compact = typeof input === 'string' && /^\d{8}$/.test(input);
    const dateText = compact ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : text;
    const date = typeof input === 'string' && /^\d{4}-\d\d-\d\d$/.test(dateText) ? isoMicros(dateText) : null;
    if (date === null) {
      if (parsed !== null)
        throw invalid(
          `Input '${text}' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.`,
        );
      throw invalid(`Input '${text}' is not a valid ISO formatted date.`);
    }
    const { offset_day: offsetDay, offset_hour: offsetHour } = offsets(exp);
    if (exp.interval === 'week') {
      const weekday = new Date(date.micros / 1000).getUTCDay();
      if (weekday !== offsetDay)
        throw invalid(
          `Input ${text} is not on the correct day of the week for this batch export. ${text} is a ${DAY_NAMES[weekday]} but this batch export is configured to run weekly on ${DAY_NAMES[offsetDay!]}.`,
        );
    }
    return { micros: date.micros + (offsetHour ?? 0) * 3_600_000_000, offsetMinutes: 0 };
  }
  if (parsed === null) throw invalid(`Input ${text} is not a valid ISO formatted datetime.`);
  if (parsed.offsetMinutes === null) throw invalid(`Input ${text} is naive.`);
  return { micros: parsed.micros, offsetMinutes: parsed.offsetMinutes };
}

/** datetime.isoformat() of an aware datetime, in the offset it was given in. */
function pythonIsoformat({ micros, offsetMinutes }: Moment): string {
  const local = micros + offsetMinutes * 60_000_000;
  const base = new Date(Math.floor(local / 1000)).toISOString().slice(0, 19);
  const fraction = ((local % 1_000_000) + 1_000_000) % 1_000_000;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${base}${fraction ? `.${String(fraction).padStart(6, '0')}` : ''}${zone}`;
}
