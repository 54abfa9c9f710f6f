// The batch export mutations' input types, and how their fields become a write in PostHog's
// names (a field left out is not sent).
import type { BatchExportWrite } from '../../loaders/batch-exports/writes.ts';
import { builder } from '../builder.ts';
import { CLIENT_MUTATION_ID } from '../payloads.ts';

const clientMutationId = { description: CLIENT_MUTATION_ID };

export const CreateInput = builder.inputType('CreateBatchExportInput', {
  description: 'A new batch export: what to export, where to, and how often.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({
      required: true,
      description: 'The project whose data the new export sends: an integer id, or "@current".',
    }),
    name: t.string({ required: true, description: 'The new export’s name, as PostHog lists it.' }),
    model: t.string({
      description:
        'What to export: events (the default), persons, sessions, or hogql (behind a PostHog flag).',
    }),
    destinationType: t.string({
      required: true,
      description:
        'Where to export to: AwsS3, S3Compatible, Snowflake, Postgres, Redshift, BigQuery, Databricks, AzureBlob, …',
    }),
    destinationConfig: t.field({
      type: 'JSON',
      description: 'The destination’s settings for its type, e.g. {bucket_name, region, prefix} for AwsS3.',
    }),
    integrationId: t.int({
      description:
        'The PostHog integration holding the destination’s credentials; PostHog requires it for integration-backed types (e.g. Postgres, BigQuery).',
    }),
    interval: t.string({
      required: true,
      description:
        'How often to run: hour, day, week, or every 5 / 15 minutes (sub-hour needs a PostHog flag).',
    }),
    paused: t.boolean({ description: 'Create it paused (no runs until unpaused).' }),
    startAt: t.field({ type: 'DateTime', description: 'Export no data before this time.' }),
    endAt: t.field({ type: 'DateTime', description: 'Export no data after this time.' }),
    timezone: t.string({
      description: 'The IANA time zone daily and weekly runs follow; UTC when left out.',
    }),
    offsetDay: t.int({ description: 'For interval week: the weekday to run on, 0 (Sunday) to 6.' }),
    offsetHour: t.int({ description: 'For interval day or week: the hour to run at, 0 to 23.' }),
    hogqlQuery: t.string({ description: 'For model hogql: the query whose rows to export.' }),
    filters: t.field({
      type: 'JSON',
      description: 'Only events matching these property filters are exported.',
    }),
  }),
});

export const UpdateInput = builder.inputType('UpdateBatchExportInput', {
  description: 'Changes to a batch export; what is left out keeps its value.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The global id of the batch export to change.' }),
    name: t.string({ description: 'A new name for the export.' }),
    destinationConfig: t.field({
      type: 'JSON',
      description:
        'Settings merged into the stored config: a secret field left out keeps its stored value. The gateway sends the stored destination type (and integration) with it, as PostHog needs.',
    }),
    interval: t.string({ description: 'A new schedule: hour, day, week, every 5 / 15 minutes.' }),
    startAt: t.field({ type: 'DateTime', description: 'A new earliest time to export data from.' }),
    endAt: t.field({ type: 'DateTime', description: 'A new latest time to export data up to.' }),
    timezone: t.string({ description: 'A new IANA time zone for daily and weekly runs.' }),
    offsetDay: t.int({
      description: 'A new weekday for weekly runs, 0 (Sunday) to 6; sent with the stored interval.',
    }),
    offsetHour: t.int({
      description: 'A new hour for daily or weekly runs, 0 to 23; sent with the stored interval.',
    }),
    hogqlQuery: t.string({ description: 'A new HogQL query, for model hogql.' }),
    filters: t.field({ type: 'JSON', description: 'New property filters for the exported events.' }),
  }),
});

const idInput = (name: string, description: string, idDescription: string) =>
  builder.inputType(name, {
    description,
    fields: (t) => ({
      clientMutationId: t.string(clientMutationId),
      id: t.id({ required: true, description: idDescription }),
    }),
  });

export const DeleteInput = idInput(
  'DeleteBatchExportInput',
  'Which batch export to delete.',
  'The global id of the batch export to delete (PostHog marks it deleted and stops its schedule).',
);
export const PauseInput = idInput(
  'PauseBatchExportInput',
  'Which batch export to pause.',
  'The global id of the batch export to pause.',
);
export const UnpauseInput = builder.inputType('UnpauseBatchExportInput', {
  description: 'Which batch export to unpause, and whether to export what the pause skipped.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The global id of the batch export to unpause.' }),
    backfill: t.boolean({ description: 'Also export the intervals skipped while paused (a backfill).' }),
  }),
});
export const CreateBackfillInput = builder.inputType('CreateBatchExportBackfillInput', {
  description: 'A backfill to start: a batch export’s runs over a past period.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The global id of the batch export to backfill.' }),
    startAt: t.field({
      type: 'DateTime',
      required: true,
      description: 'Start of the period; a daily or weekly export takes a date (midnight) only.',
    }),
    endAt: t.field({
      type: 'DateTime',
      required: true,
      description: 'End of the period; not in the future.',
    }),
  }),
});
export const CancelBackfillInput = idInput(
  'CancelBatchExportBackfillInput',
  'Which backfill to cancel.',
  'The global id of the backfill to cancel.',
);
export const RetryRunInput = idInput(
  'RetryBatchExportRunInput',
  'Which run to do again.',
  'The global id of the run to retry (PostHog starts a backfill of its interval).',
);
export const CancelRunInput = idInput(
  'CancelBatchExportRunInput',
  'Which run to cancel.',
  'The global id of the run to cancel; only a Starting or Running run can be.',
);

type Writable = {
  name?: string | null;
  model?: string | null;
  interval?: string | null;
  paused?: boolean | null;
  startAt?: string | null;
  endAt?: string | null;
  timezone?: string | null;
  offsetDay?: number | null;
  offsetHour?: number | null;
  hogqlQuery?: string | null;
  filters?: unknown;
};

/** The fields given, in PostHog's names; null and left out are both "not sent". */
export function writable(input: Writable): BatchExportWrite {
  const given = <T>(value: T | null | undefined) => (value === null ? undefined : value);
  return {
    name: given(input.name),
    model: given(input.model),
    interval: given(input.interval),
    paused: given(input.paused),
    start_at: given(input.startAt),
    end_at: given(input.endAt),
    timezone: given(input.timezone),
    offset_day: given(input.offsetDay),
    offset_hour: given(input.offsetHour),
    hogql_query: given(input.hogqlQuery),
    filters: given(input.filters),
  };
}
