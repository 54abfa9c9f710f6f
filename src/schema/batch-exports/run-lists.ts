// A batch export's runs and backfills as connections over PostHog's cursor lists
// (products/batch_exports/backend/presentation/views/batch_export/runs.py and backfills.py): runs
// 100 an upstream page, windowed by PostHog to its last 7 days unless `since` reaches further;
// backfills 50 a page. The run and backfill types: batch-export-runs.ts.
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import type { BatchExportBackfillRecord, BatchExportRunRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../connections/cursor.ts';
import { priced } from '../cost/price.ts';
import { RUN_LIST } from '../cost/rules.ts';
import { BatchExportBackfillRef, BatchExportRef, BatchExportRunRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

const RunConnection = builder.connectionObject(
  {
    type: BatchExportRunRef,
    name: 'BatchExportRunConnection',
    description: 'A batch export’s runs, newest first.',
    edgesField: { description: 'This page’s runs, newest first, each with its cursor.' },
  },
  {
    name: 'BatchExportRunEdge',
    description: 'A batch export run and the cursor to page on from it.',
    nodeField: { description: 'One run of the export, with its status and record counts.' },
  },
);
const BackfillConnection = builder.connectionObject(
  {
    type: BatchExportBackfillRef,
    name: 'BatchExportBackfillConnection',
    description: 'A batch export’s backfills, newest first.',
    edgesField: { description: 'This page’s backfills, newest first, each with its cursor.' },
  },
  {
    name: 'BatchExportBackfillEdge',
    description: 'A batch export backfill and the cursor to page on from it.',
    nodeField: { description: 'One backfill of the export, with its period and progress.' },
  },
);

builder.objectFields(BatchExportRef, (t) => ({
  runs: t.connection(
    {
      type: BatchExportRunRef,
      nullable: true,
      description: needsScopes(
        'Its runs (GET …/batch_exports/:id/runs/), newest first, 100 an upstream page. PostHog lists only the last 7 days unless `since` reaches further back; `until` ends the window early.',
        'batch_export:read',
      ),
      args: {
        status: t.arg.stringList({
          description: 'Only runs of these statuses, e.g. ["Failed", "FailedRetryable"].',
        }),
        since: t.arg({
          type: 'DateTime',
          description: 'Runs created at or after this time (PostHog’s default: 7 days ago).',
        }),
        until: t.arg({ type: 'DateTime', description: 'Runs created before this time.' }),
      },
      extensions: priced(RUN_LIST),
      resolve: (e, args, ctx) => {
        const filters = {
          statuses: args.status ?? null,
          since: args.since ?? null,
          until: args.until ?? null,
        };
        const key = { projectId: e.projectId, uuid: e.uuid };
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(e.projectId), (id) =>
            JSON.stringify(['batch-export-runs', id, e.uuid, filters.statuses, filters.since, filters.until]),
          );
        return cursorConnection(
          list,
          args,
          (run: BatchExportRunRecord) => run.uuid,
          (cursor) => ctx.loaders.batchExports.runs({ ...key, cursor, filters }),
        );
      },
    },
    RunConnection,
  ),
  backfills: t.connection(
    {
      type: BatchExportBackfillRef,
      nullable: true,
      description: needsScopes(
        'Its backfills (GET …/batch_exports/:id/backfills/), newest first, 50 an upstream page.',
        'batch_export:read',
      ),
      extensions: priced(RUN_LIST),
      resolve: (e, args, ctx) => {
        const key = { projectId: e.projectId, uuid: e.uuid };
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(e.projectId), (id) =>
            JSON.stringify(['batch-export-backfills', id, e.uuid]),
          );
        return cursorConnection(
          list,
          args,
          (b: BatchExportBackfillRecord) => b.uuid,
          (cursor) => ctx.loaders.batchExports.backfills({ ...key, cursor }),
        );
      },
    },
    BackfillConnection,
  ),
}));
