// What a batch export did: its runs (one per data interval, and those a backfill or a retry
// starts) and its backfills, as Nodes. Their connections on BatchExport: batch-export-run-lists.ts.
import type { GatewayContext } from '../../context.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import type { BatchExportBackfillRecord, BatchExportRunRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { CROSS_LINK, GLOBAL_ID } from '../cost/rules.ts';
import { dateTimeField } from '../field-options.ts';
import { exportChildGlobalId } from '../global-id.ts';
import { BatchExportBackfillRef, BatchExportRef, BatchExportRunRef, isRecordOf } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

const childId = (
  typename: 'BatchExportRun' | 'BatchExportBackfill',
  x: { projectId: string; exportUuid: string; uuid: string },
  ctx: GatewayContext,
) =>
  mapMaybePromise(ctx.loaders.currentProject.numericId(x.projectId), (id) =>
    exportChildGlobalId(typename, id, x.exportUuid, x.uuid),
  );

/** The export a run or backfill belongs to: read once per request, whatever asks. */
const exportOf = (x: { projectId: string; exportUuid: string }, ctx: GatewayContext) =>
  ctx.loaders.batchExports.load({ projectId: x.projectId, uuid: x.exportUuid }, { fromLists: true });

builder.objectType(BatchExportRunRef, {
  description: 'One run of a batch export: the export of one data interval, with its outcome.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: isRecordOf('BatchExportRun'),
  fields: (t) => ({
    id: t.id({
      description: 'The run’s global id, for `node` and retryBatchExportRun or cancelBatchExportRun.',
      extensions: priced(GLOBAL_ID),
      resolve: (run, _args, ctx) => childId('BatchExportRun', run, ctx),
    }),
    uuid: t.exposeString('uuid', { description: 'PostHog’s UUID of the run (runs/:run_id/).' }),
    status: t.exposeString('status', {
      description:
        'Starting, Running, Completed, Failed, FailedRetryable, FailedBilling, Cancelled, Terminated, TimedOut, ContinuedAsNew, or one PostHog adds later; typed: `statusValue`.',
    }),
    recordsCompleted: t.exposeInt('recordsCompleted', {
      nullable: true,
      description: 'Records exported so far.',
    }),
    recordsFailed: t.exposeInt('recordsFailed', {
      nullable: true,
      description: 'Records the run could not export.',
    }),
    recordsTotalCount: t.exposeInt('recordsTotalCount', {
      nullable: true,
      description: 'Records in the run’s data interval, once PostHog has counted them.',
    }),
    bytesExported: t.exposeFloat('bytesExported', {
      nullable: true,
      description: 'Bytes written to the destination.',
    }),
    latestError: t.exposeString('latestError', {
      nullable: true,
      description: 'The last error the run met (a destination’s refusal, a timeout, …); null when none.',
    }),
    dataIntervalStart: t.field(
      dateTimeField<BatchExportRunRecord>(
        'Start of the data interval the run exports.',
        (r) => r.dataIntervalStart,
      ),
    ),
    dataIntervalEnd: t.field(
      dateTimeField<BatchExportRunRecord>(
        'End of the data interval the run exports.',
        (r) => r.dataIntervalEnd,
      ),
    ),
    createdAt: t.field(
      dateTimeField<BatchExportRunRecord>('When PostHog started the run.', (r) => r.createdAt),
    ),
    finishedAt: t.field(
      dateTimeField<BatchExportRunRecord>('When the run ended; null while it runs.', (r) => r.finishedAt),
    ),
    updatedAt: t.field(
      dateTimeField<BatchExportRunRecord>('When the run’s state last changed.', (r) => r.updatedAt),
    ),
    batchExport: t.field({
      type: BatchExportRef,
      nullable: true,
      description: needsScopes('The batch export this run belongs to.', 'batch_export:read'),
      extensions: priced({ calls: 1 }),
      resolve: (run, _args, ctx) => exportOf(run, ctx),
    }),
    backfill: t.field({
      type: BatchExportBackfillRef,
      nullable: true,
      description: needsScopes(
        'The backfill that started this run; null for a scheduled run. Read with the other runs’ backfills from the export’s backfill list.',
        'batch_export:read',
      ),
      extensions: priced(CROSS_LINK),
      // Read with the page's other runs' backfills (loaders/batch-exports/run-backfills.ts).
      resolve: (run, _args, ctx) =>
        run.backfillUuid === null
          ? null
          : ctx.loaders.runBackfills.load({
              projectId: run.projectId,
              uuid: run.exportUuid,
              backfillUuid: run.backfillUuid,
            }),
    }),
  }),
});

const ProgressRef = builder.objectRef<NonNullable<BatchExportBackfillRecord['progress']>>(
  'BatchExportBackfillProgress',
);
ProgressRef.implement({
  description: 'How far a backfill has come, in runs.',
  fields: (t) => ({
    totalRuns: t.exposeInt('totalRuns', { nullable: true, description: 'Runs the backfill needs in all.' }),
    finishedRuns: t.exposeInt('finishedRuns', {
      nullable: true,
      description: 'Runs of the backfill that ended.',
    }),
    progress: t.exposeFloat('progress', {
      nullable: true,
      description: 'finishedRuns / totalRuns, from 0 to 1.',
    }),
  }),
});

builder.objectType(BatchExportBackfillRef, {
  description: 'A backfill: a batch export’s runs over a past period, started by a user or by a run’s retry.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: isRecordOf('BatchExportBackfill'),
  fields: (t) => ({
    id: t.id({
      description: 'The backfill’s global id, for `node` and cancelBatchExportBackfill.',
      extensions: priced(GLOBAL_ID),
      resolve: (b, _args, ctx) => childId('BatchExportBackfill', b, ctx),
    }),
    uuid: t.exposeString('uuid', {
      description: 'PostHog’s UUID of the backfill (backfills/:backfill_id/).',
    }),
    status: t.exposeString('status', {
      description:
        'Starting, Running, Completed, Failed, Cancelled, …, as PostHog reports the backfill; typed: `statusValue`.',
    }),
    startAt: t.field(
      dateTimeField<BatchExportBackfillRecord>('Start of the period the backfill exports.', (b) => b.startAt),
    ),
    endAt: t.field(
      dateTimeField<BatchExportBackfillRecord>('End of the period the backfill exports.', (b) => b.endAt),
    ),
    createdAt: t.field(
      dateTimeField<BatchExportBackfillRecord>('When the backfill was started.', (b) => b.createdAt),
    ),
    finishedAt: t.field(
      dateTimeField<BatchExportBackfillRecord>(
        'When the backfill ended; null while it runs.',
        (b) => b.finishedAt,
      ),
    ),
    totalRecordsCount: t.exposeInt('totalRecordsCount', {
      nullable: true,
      description: 'Records the backfill exports in all, once PostHog has counted them.',
    }),
    progress: t.expose('progress', {
      type: ProgressRef,
      nullable: true,
      description: 'Runs finished of runs needed; null until the upstream knows.',
    }),
    batchExport: t.field({
      type: BatchExportRef,
      nullable: true,
      description: needsScopes('The batch export this backfill runs for.', 'batch_export:read'),
      extensions: priced({ calls: 1 }),
      resolve: (b, _args, ctx) => exportOf(b, ctx),
    }),
  }),
});
