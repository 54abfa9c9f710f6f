// The batch export mutations (inputs: batch-export-inputs.ts; payloads: batch-export-payloads.ts).
// Each resolver decodes its ids and calls the request's batch export writes
// (loaders/batch-exports/writes.ts).
import { validateProjectId } from '../../core/ids.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { batchExportGlobalId, decodeGlobalIdOf } from '../global-id.ts';
import { needsScopes } from '../scopes.ts';
import {
  CancelBackfillInput,
  CancelRunInput,
  CreateBackfillInput,
  CreateInput,
  DeleteInput,
  PauseInput,
  RetryRunInput,
  UnpauseInput,
  UpdateInput,
  writable,
} from './inputs.ts';
import {
  CancelBackfillPayload,
  CancelRunPayload,
  CreateBackfillPayload,
  CreatePayload,
  DeletePayload,
  PausePayload,
  RetryRunPayload,
  UpdatePayload,
} from './payloads.ts';

const exportKey = (id: string) => {
  const { projectId, uuid } = decodeGlobalIdOf('BatchExport', id);
  return { projectId, uuid };
};
const WRITE = 'batch_export:write' as const;
const echo = (input: { clientMutationId?: string | null }) => input.clientMutationId ?? null;

builder.mutationFields((t) => ({
  createBatchExport: t.field({
    type: CreatePayload,
    nullable: true,
    description: needsScopes('Creates a batch export (POST …/batch_exports/).', WRITE),
    args: {
      input: t.arg({
        type: CreateInput,
        required: true,
        description: 'The new batch export: its name, model, destination and schedule.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const batchExport = await ctx.loaders.batchExportWrites.create(projectId, writable(input), {
        type: input.destinationType,
        config: input.destinationConfig,
        integrationId: input.integrationId,
      });
      return { clientMutationId: echo(input), batchExport };
    },
  }),
  updateBatchExport: t.field({
    type: UpdatePayload,
    nullable: true,
    description: needsScopes('Changes a batch export (PATCH …/batch_exports/:id/).', WRITE),
    args: {
      input: t.arg({
        type: UpdateInput,
        required: true,
        description: 'The batch export’s global id and the settings to change in it.',
      }),
    },
    // The write, then a read of what it must resend.
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const config = input.destinationConfig ?? undefined;
      const batchExport = await ctx.loaders.batchExportWrites.update(
        exportKey(input.id),
        writable(input),
        config,
      );
      return { clientMutationId: echo(input), batchExport };
    },
  }),
  deleteBatchExport: t.field({
    type: DeletePayload,
    nullable: true,
    description: needsScopes(
      'Deletes a batch export (DELETE …/batch_exports/:id/; PostHog keeps it, marked deleted).',
      WRITE,
    ),
    args: {
      input: t.arg({
        type: DeleteInput,
        required: true,
        description: 'The global id of the batch export PostHog is to mark deleted.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const key = exportKey(input.id);
      const numericProjectId = await ctx.loaders.batchExportWrites.delete(key);
      return { clientMutationId: echo(input), deletedId: batchExportGlobalId(numericProjectId, key.uuid) };
    },
  }),
}));

builder.mutationFields((t) => ({
  pauseBatchExport: t.field({
    type: PausePayload,
    nullable: true,
    description: needsScopes('Pauses a batch export’s schedule (POST …/batch_exports/:id/pause/).', WRITE),
    args: {
      input: t.arg({
        type: PauseInput,
        required: true,
        description: 'The global id of the batch export whose schedule stops.',
      }),
    },
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const batchExport = await ctx.loaders.batchExportWrites.setPaused(exportKey(input.id), true);
      return { clientMutationId: echo(input), batchExport };
    },
  }),
  unpauseBatchExport: t.field({
    type: PausePayload,
    nullable: true,
    description: needsScopes('Resumes a paused batch export (POST …/batch_exports/:id/unpause/).', WRITE),
    args: {
      input: t.arg({
        type: UnpauseInput,
        required: true,
        description: 'The global id of the paused batch export to resume, and whether to backfill the gap.',
      }),
    },
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const key = exportKey(input.id);
      const batchExport = await ctx.loaders.batchExportWrites.setPaused(key, false, input.backfill);
      return { clientMutationId: echo(input), batchExport };
    },
  }),
}));

builder.mutationFields((t) => ({
  createBatchExportBackfill: t.field({
    type: CreateBackfillPayload,
    nullable: true,
    description: needsScopes(
      'Starts a backfill of a batch export over a past period (POST …/batch_exports/:id/backfills/). CONCURRENCY_LIMITED when the team already runs PostHog’s maximum of backfills.',
      WRITE,
    ),
    args: {
      input: t.arg({
        type: CreateBackfillInput,
        required: true,
        description: 'The batch export’s global id and the past period its backfill covers.',
      }),
    },
    // The export (its interval says whether dates or times go), the write, the backfill.
    extensions: priced({ calls: 3 }),
    resolve: async (_root, { input }, ctx) => {
      const key = exportKey(input.id);
      const backfill = await ctx.loaders.batchExportWrites.createBackfill(key, input.startAt, input.endAt);
      return { clientMutationId: echo(input), backfill };
    },
  }),
  cancelBatchExportBackfill: t.field({
    type: CancelBackfillPayload,
    nullable: true,
    description: needsScopes('Cancels a running backfill (POST …/backfills/:id/cancel/).', WRITE),
    args: {
      input: t.arg({
        type: CancelBackfillInput,
        required: true,
        description: 'The global id of the running backfill to stop.',
      }),
    },
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, exportUuid, uuid } = decodeGlobalIdOf('BatchExportBackfill', input.id);
      const backfill = await ctx.loaders.batchExportWrites.cancelBackfill(
        { projectId, uuid: exportUuid },
        uuid,
      );
      return { clientMutationId: echo(input), backfill };
    },
  }),
}));

builder.mutationFields((t) => ({
  retryBatchExportRun: t.field({
    type: RetryRunPayload,
    nullable: true,
    description: needsScopes('Runs a batch export run’s interval again (POST …/runs/:id/retry/).', WRITE),
    args: {
      input: t.arg({
        type: RetryRunInput,
        required: true,
        description: 'The global id of the run whose interval PostHog exports again.',
      }),
    },
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, exportUuid, uuid } = decodeGlobalIdOf('BatchExportRun', input.id);
      const backfill = await ctx.loaders.batchExportWrites.retryRun({ projectId, uuid: exportUuid }, uuid);
      return { clientMutationId: echo(input), backfill };
    },
  }),
  cancelBatchExportRun: t.field({
    type: CancelRunPayload,
    nullable: true,
    description: needsScopes(
      'Cancels a Starting or Running batch export run (POST …/runs/:id/cancel/).',
      WRITE,
    ),
    args: {
      input: t.arg({
        type: CancelRunInput,
        required: true,
        description: 'The global id of the Starting or Running run to stop.',
      }),
    },
    extensions: priced({ calls: 2 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, exportUuid, uuid } = decodeGlobalIdOf('BatchExportRun', input.id);
      const run = await ctx.loaders.batchExportWrites.cancelRun({ projectId, uuid: exportUuid }, uuid);
      return { clientMutationId: echo(input), run };
    },
  }),
}));
