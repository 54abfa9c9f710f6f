// The closed sets of batch exports as typed values (schema/closed-set.ts): a run's and a
// backfill's status, an export's interval, model and destination type, each beside its raw
// String. The values: products/batch_exports/backend/facade/enums.py@cd24e09 (BatchExportRunStatus,
// BatchExportBackfillStatus, BatchExportInterval, BatchExportModel, BatchExportDestinationType;
// BatchExportRun.Status and BatchExportBackfill.Status of posthog/batch_exports/models.py@b24bdf0
// are the same sets, and its BatchExportDestination.Destination adds the legacy S3).
import { builder } from '../builder.ts';
import { closedSetEnum, typedValueDescription } from '../closed-set.ts';
import { BatchExportBackfillRef, BatchExportRef, BatchExportRunRef } from '../refs.ts';

const STATUSES = [
  ['Starting', 'the run is being started.'],
  ['Running', 'the run is exporting.'],
  ['Completed', 'the run exported its interval.'],
  ['Failed', 'the run failed and is not retried.'],
  ['FailedRetryable', 'the run failed and may be retried.'],
  ['Cancelled', 'the run was cancelled.'],
  ['Terminated', 'PostHog terminated the run.'],
  ['TimedOut', 'the run ran out of time.'],
  ['ContinuedAsNew', 'the run continues as a new workflow.'],
] as const;

const RunStatus = closedSetEnum({
  name: 'BatchExportRunStatus',
  description: 'The state of a batch export run, as PostHog’s BatchExportRunStatus names it.',
  rawField: 'status',
  values: [...STATUSES, ['FailedBilling', 'the run failed because of the organization’s billing.']],
});

const BackfillStatus = closedSetEnum({
  name: 'BatchExportBackfillStatus',
  description: 'The state of a batch export backfill, as PostHog’s BatchExportBackfillStatus names it.',
  rawField: 'status',
  values: STATUSES,
});

const Interval = closedSetEnum({
  name: 'BatchExportInterval',
  description: 'How often a batch export runs, as PostHog’s BatchExportInterval names it.',
  rawField: 'interval',
  values: [
    ['hour', 'every hour.'],
    ['day', 'every day.'],
    ['week', 'every week.'],
    ['every 5 minutes', 'every 5 minutes.'],
    ['every 15 minutes', 'every 15 minutes.'],
  ],
});

const Model = closedSetEnum({
  name: 'BatchExportModel',
  description: 'What a batch export exports, as PostHog’s BatchExportModel names it.',
  rawField: 'model',
  values: [
    ['events', 'the project’s events.'],
    ['persons', 'the project’s persons.'],
    ['sessions', 'the project’s sessions.'],
    ['hogql', 'the result of its HogQL query.'],
  ],
});

const DestinationType = closedSetEnum({
  name: 'BatchExportDestinationType',
  description: 'Where a batch export exports to, as PostHog’s BatchExportDestinationType names it.',
  rawField: 'destinationType',
  values: [
    ['S3', 'Amazon S3, as exports made before AwsS3 name it.'],
    ['AwsS3', 'Amazon S3.'],
    ['S3Compatible', 'a bucket of an S3-compatible store.'],
    ['Snowflake', 'Snowflake.'],
    ['Postgres', 'PostgreSQL.'],
    ['Redshift', 'Amazon Redshift.'],
    ['BigQuery', 'Google BigQuery.'],
    ['Databricks', 'Databricks.'],
    ['AzureBlob', 'Azure Blob Storage.'],
    ['Workflows', 'PostHog’s own workflows (internal).'],
    ['HTTP', 'an HTTP endpoint.'],
    ['NoOp', 'nowhere (for tests).'],
    ['FileDownload', 'a file to download.'],
  ],
});

builder.objectFields(BatchExportRunRef, (t) => ({
  statusValue: t.field({
    type: RunStatus.ref,
    description: typedValueDescription('status', 'BatchExportRunStatus'),
    resolve: (run) => RunStatus.read(run.status),
  }),
}));

builder.objectFields(BatchExportBackfillRef, (t) => ({
  statusValue: t.field({
    type: BackfillStatus.ref,
    description: typedValueDescription('status', 'BatchExportBackfillStatus'),
    resolve: (backfill) => BackfillStatus.read(backfill.status),
  }),
}));

builder.objectFields(BatchExportRef, (t) => ({
  intervalValue: t.field({
    type: Interval.ref,
    description: typedValueDescription('interval', 'BatchExportInterval'),
    resolve: (e) => Interval.read(e.interval),
  }),
  modelValue: t.field({
    type: Model.ref,
    nullable: true,
    description: typedValueDescription('model', 'BatchExportModel', true),
    resolve: (e) => Model.readNullable(e.model),
  }),
  destinationTypeValue: t.field({
    type: DestinationType.ref,
    description: typedValueDescription('destinationType', 'BatchExportDestinationType'),
    resolve: (e) => DestinationType.read(e.destinationType),
  }),
}));
