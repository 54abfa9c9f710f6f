// /api/projects/:project_id/batch_exports/ as PostHog serves it in late 2026: BatchExportViewSet in
// products/batch_exports/backend/presentation/views/batch_export/exports.py at 0551d5e (list,
// create, retrieve, PUT/PATCH, DELETE as a soft delete, pause, unpause; `logs` is refused to
// personal API keys by the route table). Writes leave BatchExport activity. Runs and backfills:
// batch-export-run-routes.ts and batch-export-backfill-routes.ts.
import { notFound, permissionDenied } from '../http/api-error.ts';
import { CUSTOM_ACTION_REFUSED_2026 } from '../http/auth.ts';
import { batchExportChanges, logBatchExportActivity } from './activity.ts';
import { backfillRecord } from './history.ts';
import type { BatchExport } from './model.ts';
import { boolean, exceptionsHogError } from './readers.ts';
import { newExport } from './seed.ts';
import { serializeBatchExport } from './view.ts';
import { applyWrite, validateExportWrite } from './write.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { empty, ok, type Reply, type RouteContext } from '../http/reply.ts';
import { seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The viewset's queryset: this project's exports, never a deleted one; `Workflows` ones too. */
export function requireExport({ store, project, params }: RouteContext, id = params.id): BatchExport {
  const exp = UUID.test(id ?? '') ? store.batchExports.exports.get(id!.toLowerCase()) : undefined;
  if (!exp || exp.projectId !== project.id || exp.deleted) throw notFound();
  return exp;
}

/** A new record's UUID, distinct from every seeded one. */
export const nextBatchExportUuid = (store: Store) => seededUuid(0x23, store.batchExports.nextId++);

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportViewSet.list (safely_get_queryset)
export function listBatchExports({ store, project, url }: RouteContext): Reply {
  const listed = [...store.batchExports.exports.values()]
    .filter((e) => e.projectId === project.id && !e.deleted && e.destination.type !== 'Workflows')
    .sort((a, b) => b.createdAtMicros - a.createdAtMicros);
  const page = limitOffsetPage(listed, url);
  return ok({ ...page, results: page.results.map((e) => serializeBatchExport(store, e)) });
}

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportViewSet.retrieve
export function retrieveBatchExport(ctx: RouteContext): Reply {
  return ok(serializeBatchExport(ctx.store, requireExport(ctx)));
}

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportSerializer.create
export function createBatchExport(ctx: RouteContext): Reply {
  const { store, project, key } = ctx;
  const write = validateExportWrite({
    store,
    projectId: project.id,
    instance: null,
    partial: false,
    data: ctx.body.data,
  });
  const now = store.nowMicros();
  const { destination, name, model, interval } = write.fields;
  const config = { ...destination!.config };
  // _set_default_parquet_extension: new object-storage exports use the plain `.parquet` extension.
  if (OBJECT_STORAGE.includes(destination!.type) && !('legacy_parquet_extension' in config))
    config.legacy_parquet_extension = false;
  const exp = newExport(
    {
      projectId: project.id,
      name: name!,
      model: model ?? 'events',
      interval: interval!,
      destination: { type: destination!.type, config, integration: destination!.integration },
      createdBy: key.userId,
    },
    nextBatchExportUuid(store),
    now,
  );
  applyWrite(exp, { ...write, fields: { ...write.fields, destination: undefined } }, now);
  store.batchExports.exports.set(exp.id, exp);
  logBatchExportActivity(store, key.userId, exp, 'created', null, now);
  return ok(serializeBatchExport(store, exp), 201);
}

/** OBJECT_STORAGE_DESTINATIONS (the types whose files carry an extension). */
const OBJECT_STORAGE = ['S3', 'AwsS3', 'S3Compatible', 'AzureBlob'];

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportSerializer.update
export function updateBatchExport(ctx: RouteContext, partial: boolean): Reply {
  const { store, project, key } = ctx;
  const exp = requireExport(ctx);
  const write = validateExportWrite({
    store,
    projectId: project.id,
    instance: exp,
    partial,
    data: ctx.body.data,
  });
  const before = { ...exp };
  // _pin_existing_parquet_extension: what the stored files look like, before the merge.
  if (
    write.fields.destination &&
    OBJECT_STORAGE.includes(exp.destination.type) &&
    !('legacy_parquet_extension' in exp.destination.config)
  ) {
    const c = exp.destination.config;
    exp.destination.config = {
      ...c,
      legacy_parquet_extension: c.file_format === 'Parquet' && c.compression != null,
    };
  }
  const now = store.nowMicros();
  applyWrite(exp, write, now);
  const changes = batchExportChanges(before, exp);
  if (changes.length > 0) logBatchExportActivity(store, key.userId, exp, 'updated', changes, now);
  return ok(serializeBatchExport(store, exp));
}

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportViewSet.perform_destroy (delete_batch_export: deleted=True)
export function deleteBatchExport(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  const exp = requireExport(ctx);
  const now = store.nowMicros();
  // delete_batch_export (products/batch_exports/backend/service.py@02b1f51) pauses a running export
  // first, through pause_batch_export and its own save (and entry), then saves the soft delete.
  pauseExport(store, key.userId, exp, now);
  const before = { ...exp };
  exp.deleted = true;
  exp.lastUpdatedAtMicros = now;
  // Its running backfills are cancelled too (tests/api/test_delete.py, test_delete_batch_export_cancels_backfills).
  for (const backfill of store.batchExports.backfills.values()) {
    if (
      backfill.batchExportId !== exp.id ||
      (backfill.status !== 'Running' && backfill.status !== 'Starting')
    )
      continue;
    Object.assign(backfill, { status: 'Cancelled', finishedAtMicros: now, lastUpdatedAtMicros: now });
  }
  // A soft delete is a save: ModelActivityMixin logs it as `updated` (posthog/models/activity_logging/model_activity.py).
  logBatchExportActivity(store, key.userId, exp, 'updated', batchExportChanges(before, exp), now);
  return empty(204);
}

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportViewSet.pause (service.pause_batch_export)
export function pauseBatchExport(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  pauseExport(store, key.userId, requireExport(ctx), store.nowMicros());
  return ok({ paused: true });
}

/** service.pause_batch_export: an export already paused is left alone (and logs nothing). */
function pauseExport(store: Store, userId: number | null, exp: BatchExport, now: number): void {
  if (exp.paused) return;
  const before = { ...exp };
  exp.paused = true;
  exp.lastPausedAtMicros = now;
  exp.lastUpdatedAtMicros = now;
  logBatchExportActivity(store, userId, exp, 'updated', batchExportChanges(before, exp), now);
}

// products/batch_exports/backend/presentation/views/batch_export/exports.py, BatchExportViewSet.unpause (service.unpause_batch_export)
export function unpauseBatchExport(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  // BatchExportUnpauseRequestSerializer is validated before the export is looked up.
  const given = ctx.body.data.backfill;
  const backfill = given === undefined ? false : boolean(given);
  if (typeof backfill !== 'boolean') throw exceptionsHogError({ backfill: backfill.errors });
  const exp = requireExport(ctx);
  if (exp.paused) {
    const before = { ...exp };
    const now = store.nowMicros();
    exp.paused = false;
    exp.lastUpdatedAtMicros = now;
    logBatchExportActivity(store, key.userId, exp, 'updated', batchExportChanges(before, exp), now);
    // With `backfill`, the runs missed while paused are backfilled (from last_paused_at to now).
    if (backfill && exp.lastPausedAtMicros !== null) {
      const record = backfillRecord(
        nextBatchExportUuid(store),
        exp,
        exp.lastPausedAtMicros,
        now,
        now,
        'Starting',
      );
      store.batchExports.backfills.set(record.id, record);
    }
  }
  return ok({ paused: false });
}

// posthog/api/log_entries.py, LogEntryMixin.logs (no required_scopes: refused to every personal API key)
export function refuseBatchExportLogs(): Reply {
  throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
}
