// What the batch export mutations answer: the echo of clientMutationId and the export, run or
// backfill as it is after the write (batch-export-mutations.ts).
import type {
  BatchExportBackfillRecord,
  BatchExportRecord,
  BatchExportRunRecord,
} from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { clientMutationIdField, deletePayload } from '../payloads.ts';
import { BatchExportBackfillRef, BatchExportRef, BatchExportRunRef } from '../refs.ts';

type Echoes = { clientMutationId: string | null };

const exportPayload = (name: string, description: string, fieldDescription: string) =>
  builder.objectRef<Echoes & { batchExport: BatchExportRecord }>(name).implement({
    description,
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      batchExport: t.field({
        type: BatchExportRef,
        nullable: true,
        description: fieldDescription,
        resolve: (p) => p.batchExport,
      }),
    }),
  });

const backfillPayload = (name: string, description: string, fieldDescription: string) =>
  builder.objectRef<Echoes & { backfill: BatchExportBackfillRecord }>(name).implement({
    description,
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      backfill: t.field({
        type: BatchExportBackfillRef,
        nullable: true,
        description: fieldDescription,
        resolve: (p) => p.backfill,
      }),
    }),
  });

export const CreatePayload = exportPayload(
  'CreateBatchExportPayload',
  'The result of creating a batch export.',
  'The new batch export, as PostHog answered the create.',
);
export const UpdatePayload = exportPayload(
  'UpdateBatchExportPayload',
  'The result of changing a batch export.',
  'The batch export after the change, as PostHog answered it.',
);
export const PausePayload = exportPayload(
  'PauseBatchExportPayload',
  'The result of pausing or unpausing a batch export.',
  'The batch export as it is now, read again after PostHog acknowledged the pause or unpause.',
);
export const DeletePayload = deletePayload(
  'DeleteBatchExportPayload',
  'The result of deleting a batch export.',
  'batch export',
);
export const CreateBackfillPayload = backfillPayload(
  'CreateBatchExportBackfillPayload',
  'The result of starting a backfill.',
  'The backfill PostHog started, read by the id it answered.',
);
export const CancelBackfillPayload = backfillPayload(
  'CancelBatchExportBackfillPayload',
  'The result of cancelling a backfill.',
  'The backfill as it is after the cancel.',
);
export const RetryRunPayload = backfillPayload(
  'RetryBatchExportRunPayload',
  'The result of retrying a run.',
  'The backfill PostHog starts to redo the run’s interval.',
);
export const CancelRunPayload = builder
  .objectRef<Echoes & { run: BatchExportRunRecord }>('CancelBatchExportRunPayload')
  .implement({
    description: 'The result of cancelling a run.',
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      run: t.field({
        type: BatchExportRunRef,
        nullable: true,
        description: 'The run as it is after the cancel.',
        resolve: (p) => p.run,
      }),
    }),
  });
