// BatchExport: a scheduled export of a project's data to a warehouse or bucket, the third kind of
// destination PostHog lists (a Destination, enabled while not paused), the Project fields that
// reach it, its activity and its cross-link from the activity log. Its runs and backfills:
// batch-export-runs.ts; its mutations: batch-export-mutations.ts.

import { ACTIVITY_SCOPES } from '../../core/activity-scopes.ts';
import { uuidFromText, validateUuid } from '../../core/ids.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { isNotFound } from '../../errors/codes.ts';
import { ActivityLogConnection, activityConnection } from '../activity/log.ts';
import { builder } from '../builder.ts';
import { offsetConnection } from '../connections/offset.ts';
import { priced } from '../cost/price.ts';
import { CROSS_LINK, GLOBAL_ID, ITEM_ACTIVITY, OFFSET_LIST } from '../cost/rules.ts';
import { dateTimeField } from '../field-options.ts';
import { batchExportGlobalId } from '../global-id.ts';
import { projectRecord } from '../project.ts';
import {
  ActivityLogEntryRef,
  BatchExportRef,
  BatchExportRunRef,
  DestinationRef,
  isRecordOf,
  ProjectRef,
} from '../refs.ts';
import { needsScopes } from '../scopes.ts';

/** The scope PostHog writes on entries about a batch export. */
export const BATCH_EXPORT_SCOPE = ACTIVITY_SCOPES.batch_exports;

builder.objectType(BatchExportRef, {
  description:
    'A batch export: PostHog exports the project’s events, persons or sessions on a schedule (hourly, daily, …) to a warehouse or bucket such as S3, BigQuery, Snowflake or Postgres.',
  interfaces: [builder.nodeInterfaceRef(), DestinationRef],
  isTypeOf: isRecordOf('BatchExport'),
  fields: (t) => ({
    id: t.id({
      description: 'The batch export’s global id, for `node`, `nodes` and the batch export mutations.',
      extensions: priced(GLOBAL_ID),
      resolve: (e, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(e.projectId), (id) =>
          batchExportGlobalId(id, e.uuid),
        ),
    }),
    uuid: t.exposeString('uuid', { description: 'PostHog’s UUID of the export (batch_exports/:id/).' }),
    project: t.field({
      type: ProjectRef,
      description: 'The project whose data the export sends.',
      resolve: (e) => projectRecord(e.projectId),
    }),
    name: t.exposeString('name', { nullable: true, description: 'The export’s name as set in PostHog.' }),
    enabled: t.boolean({
      description: 'True while the export runs on its schedule, i.e. while it is not paused.',
      resolve: (e) => !e.paused,
    }),
    paused: t.exposeBoolean('paused', {
      description: 'Whether PostHog has stopped scheduling runs (pauseBatchExport, unpauseBatchExport).',
    }),
    model: t.exposeString('model', {
      nullable: true,
      description:
        'What it exports: events, persons, sessions, hogql, or one PostHog adds later; typed: `modelValue`.',
    }),
    destinationType: t.exposeString('destinationType', {
      description:
        'Where it exports to: AwsS3, S3Compatible, Snowflake, Postgres, Redshift, BigQuery, Databricks, AzureBlob, HTTP, S3 (legacy), …; typed: `destinationTypeValue`.',
    }),
    destinationConfig: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'The destination’s settings (bucket, dataset, table, …). PostHog strips its secret fields; a secret field the gateway still sees reads {"secret": true}.',
      resolve: (e) => e.destinationConfig,
    }),
    interval: t.exposeString('interval', {
      description:
        'How often it runs: hour, day, week, every 5 minutes, every 15 minutes, …; typed: `intervalValue`.',
    }),
  }),
});

// When it runs and what it exports: its schedule, bounds, query and latest runs.
builder.objectFields(BatchExportRef, (t) => ({
  createdAt: t.field(dateTimeField('When the export was created.', (e) => e.createdAt)),
  updatedAt: t.field(
    dateTimeField('When the export’s settings last changed (last_updated_at).', (e) => e.updatedAt),
  ),
  lastPausedAt: t.field(
    dateTimeField('When the export was last paused; null if never.', (e) => e.lastPausedAt),
  ),
  startAt: t.field(
    dateTimeField('The earliest data interval it exports; null for no bound.', (e) => e.startAt),
  ),
  endAt: t.field(dateTimeField('The latest data interval it exports; null for no bound.', (e) => e.endAt)),
  timezone: t.exposeString('timezone', {
    nullable: true,
    description: 'The time zone its daily and weekly intervals follow (UTC unless set).',
  }),
  offsetDay: t.exposeInt('offsetDay', {
    nullable: true,
    description: 'For a weekly export, the weekday it runs on (0 Sunday … 6 Saturday).',
  }),
  offsetHour: t.exposeInt('offsetHour', {
    nullable: true,
    description: 'For a daily or weekly export, the hour of the day (0–23) it runs at.',
  }),
  hogqlQuery: t.exposeString('hogqlQuery', {
    nullable: true,
    description: 'The HogQL query whose result it exports (model hogql, or a custom event selection).',
  }),
  filters: t.field({
    type: 'JSON',
    nullable: true,
    description: 'Which events it exports, as PostHog’s property filters; null for all of them.',
    resolve: (e) => e.filters,
  }),
  latestRuns: t.field({
    type: [BatchExportRunRef],
    description:
      'Its newest runs, newest first, as PostHog embeds them in the export (at most 10): no extra call.',
    resolve: (e) => e.latestRuns,
  }),
  activity: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description: needsScopes(
        'The activity log entries about this export (scope BatchExport, item_id = its uuid): who created, changed, paused or deleted it.',
        'activity_log:read',
      ),
      extensions: priced(ITEM_ACTIVITY),
      resolve: (e, args, ctx) =>
        activityConnection(ctx, e.projectId, { scope: BATCH_EXPORT_SCOPE, itemId: e.uuid }, args),
    },
    ActivityLogConnection,
  ),
}));

const BatchExportConnection = builder.connectionObject(
  {
    type: BatchExportRef,
    name: 'BatchExportConnection',
    description:
      'A project’s batch exports, newest first, as PostHog lists them (deleted and internal ones left out).',
    edgesField: { description: 'This page’s batch exports, newest first, each with its cursor.' },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many batch exports the project has (PostHog’s count).',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'BatchExportEdge',
    description: 'A batch export and the cursor to page on from it.',
    nodeField: { description: 'One batch export of the project, with its destination and schedule.' },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  batchExports: t.connection(
    {
      type: BatchExportRef,
      nullable: true,
      description: needsScopes(
        'The project’s batch exports (GET …/batch_exports/), both ways, newest first. An upstream without batch exports (PostHog before them) answers UPSTREAM_UNSUPPORTED; Project.destinations then lists the other kinds without an error. Paged by offset, as PostHog pages it: an item created or deleted between two pages shifts the rest by one, so the next page may repeat or skip an item; reading again from the start is exact.',
        'batch_export:read',
      ),
      extensions: priced(OFFSET_LIST),
      resolve: (project, args, ctx) => {
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify(['batch-exports', id]),
          );
        return offsetConnection(list, args, (limit, offset) =>
          ctx.loaders.batchExports.page({ projectId: project.projectId, limit, offset }),
        );
      },
    },
    BatchExportConnection,
  ),
  batchExport: t.field({
    type: BatchExportRef,
    nullable: true,
    description: needsScopes(
      'A batch export by its UUID; null when the upstream answers 404 (deleted, or not of this project).',
      'batch_export:read',
    ),
    args: { uuid: t.arg.string({ required: true, description: 'The batch export’s UUID, as in `uuid`.' }) },
    extensions: priced({ calls: 1 }),
    resolve: async (project, args, ctx) => {
      const uuid = validateUuid(args.uuid, 'a batch export');
      try {
        return await ctx.loaders.batchExports.load({ projectId: project.projectId, uuid });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));

builder.objectFields(ActivityLogEntryRef, (t) => ({
  batchExport: t.field({
    type: BatchExportRef,
    nullable: true,
    description: needsScopes(
      'The batch export this entry is about, when scope is BatchExport and it can still be read; read with the page’s other exports in one list call.',
      'batch_export:read',
    ),
    extensions: priced(CROSS_LINK),
    resolve: async (entry, _args, ctx) => {
      const uuid = entry.scope === BATCH_EXPORT_SCOPE ? uuidFromText(entry.itemId) : null;
      if (uuid === null) return null;
      try {
        return await ctx.loaders.batchExports.load({ projectId: entry.projectId, uuid }, { fromLists: true });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
