// HogFunction: a destination (or transformation, source, site app…) as PostHog keeps it since late
// 2024, its template and status, the Project fields that reach it, and its activity. Its logs and
// metrics: hog-function-runs.ts; its template: hog-function-template.ts. A secret input reads {"secret": true} (normalize-hog-function.ts).
import { isNotFound } from '../errors/codes.ts';
import { hogFunctionIdFromText, validateHogFunctionId } from '../ids.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import type { HogFunctionRecord } from '../upstream/records.ts';
import { ActivityLogConnection, activityConnection } from './activity-log.ts';
import { builder } from './builder.ts';
import { offsetConnection } from './connections/offset.ts';
import { hogFunctionGlobalId } from './global-id.ts';
import { projectRecord } from './project.ts';
import {
  ActivityLogEntryRef,
  ActivityUserRef,
  DestinationRef,
  HogFunctionRef,
  HogFunctionTemplateRef,
  isRecordOf,
  ProjectRef,
} from './refs.ts';

/** The scope PostHog writes on entries about a hog function. */
export const HOG_FUNCTION_SCOPE = 'HogFunction';

const STATUS_NAMES: Record<number, string> = {
  0: 'unknown',
  1: 'healthy',
  2: 'degraded',
  3: 'disabled',
  11: 'forcefully_degraded',
  12: 'forcefully_disabled',
};

const HogFunctionStatusRef = builder.objectRef<NonNullable<HogFunctionRecord['status']>>('HogFunctionStatus');
HogFunctionStatusRef.implement({
  description: 'How the function runs: healthy, degraded or disabled (by the upstream).',
  fields: (t) => ({
    state: t.exposeInt('state', {
      description:
        '0 unknown, 1 healthy, 2 degraded, 3 disabled, 11 forcefully degraded, 12 forcefully disabled.',
    }),
    name: t.string({ description: 'The state’s name.', resolve: (s) => STATUS_NAMES[s.state] ?? 'unknown' }),
    tokens: t.exposeFloat('tokens', { nullable: true, description: 'Its rate-limit tokens.' }),
  }),
});

const json = (description: string, read: (fn: HogFunctionRecord) => unknown) => ({
  type: 'JSON' as const,
  nullable: true,
  description,
  resolve: read,
});

builder.objectType(HogFunctionRef, {
  description: 'A hog function: how PostHog keeps destinations, transformations, sources and site apps.',
  interfaces: [builder.nodeInterfaceRef(), DestinationRef],
  isTypeOf: isRecordOf('HogFunction'),
  fields: (t) => ({
    id: t.id({
      description: 'The global id: opaque, stable, accepted by `node` and `nodes`.',
      resolve: (fn, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(fn.projectId), (id) =>
          hogFunctionGlobalId(id, fn.uuid),
        ),
    }),
    uuid: t.exposeString('uuid', { description: 'The upstream’s UUID.' }),
    project: t.field({
      type: ProjectRef,
      description: 'Its project.',
      resolve: (fn) => projectRecord(fn.projectId),
    }),
    type: t.exposeString('type', {
      description:
        'destination, site_destination, internal_destination, source_webhook, site_app, transformation, transformation_log, legacy_destination, or one PostHog adds later.',
    }),
    name: t.exposeString('name', { nullable: true, description: 'Its name.' }),
    description: t.exposeString('description', {
      nullable: true,
      description: 'Its description.',
    }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether it runs.' }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was made.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed.',
    }),
    createdBy: t.expose('createdBy', {
      type: ActivityUserRef,
      nullable: true,
      description: 'Who made it.',
    }),
    hog: t.exposeString('hog', { nullable: true, description: 'Its Hog source code.' }),
    inputsSchema: t.field(json('The inputs it takes.', (fn) => fn.inputsSchema)),
    inputs: t.field(json('Its inputs; a secret one reads {"secret": true}.', (fn) => fn.inputs)),
    filters: t.field(json('Which events reach it.', (fn) => fn.filters)),
    masking: t.field(json('How it masks repeated events.', (fn) => fn.masking)),
    mappings: t.field(json('Its mappings.', (fn) => fn.mappings)),
    iconUrl: t.exposeString('iconUrl', { nullable: true, description: 'Its icon.' }),
    template: t.expose('template', {
      type: HogFunctionTemplateRef,
      nullable: true,
      description:
        'The template it was made from, as PostHog nests it in the function; null for one written from code.',
    }),
    status: t.expose('status', {
      type: HogFunctionStatusRef,
      nullable: true,
      description: 'How it runs.',
    }),
    executionOrder: t.exposeInt('executionOrder', {
      nullable: true,
      description: 'Its place among transformations.',
    }),
    version: t.exposeInt('version', {
      nullable: true,
      description: 'Bumped by each change to its code, inputs or filters.',
    }),
  }),
});

// Its activity: the log's entries about it.
builder.objectFields(HogFunctionRef, (t) => ({
  activity: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description: 'The activity log entries about this function (scope HogFunction, item_id = its uuid).',
      resolve: (fn, args, ctx) =>
        activityConnection(ctx, fn.projectId, { scope: HOG_FUNCTION_SCOPE, itemId: fn.uuid }, args),
    },
    ActivityLogConnection,
  ),
}));

const HogFunctionConnection = builder.connectionObject(
  {
    type: HogFunctionRef,
    name: 'HogFunctionConnection',
    description:
      'Hog functions in the upstream’s order (execution order, then the latest change), as a Relay connection.',
    fields: (t) => ({
      totalCount: t.int({ description: 'How many functions match.', resolve: (c) => c.totalCount ?? 0 }),
    }),
  },
  { name: 'HogFunctionEdge', description: 'A hog function and its cursor.' },
);

builder.objectFields(ProjectRef, (t) => ({
  hogFunctions: t.connection(
    {
      type: HogFunctionRef,
      nullable: true,
      description:
        'The project’s hog functions (GET …/hog_functions/), both ways; types, enabled and search go to the upstream’s filters.',
      args: {
        types: t.arg.stringList({
          description: 'Only these types, e.g. ["destination", "site_destination"].',
        }),
        enabled: t.arg.boolean({ description: 'Only enabled (true) or disabled (false) functions.' }),
        search: t.arg.string({ description: 'In the name, then the description (at most 200 characters).' }),
      },
      resolve: (project, args, ctx) => {
        const filters = { types: args.types, enabled: args.enabled, search: args.search };
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify([
              'hog-functions',
              id,
              filters.types ?? null,
              filters.enabled ?? null,
              filters.search ?? null,
            ]),
          );
        return offsetConnection(list, args, (limit, offset) =>
          ctx.loaders.hogFunctions.page({ projectId: project.projectId, limit, offset, filters }),
        );
      },
    },
    HogFunctionConnection,
  ),
  hogFunction: t.field({
    type: HogFunctionRef,
    nullable: true,
    description: 'A hog function by its UUID; null when the upstream answers 404.',
    args: { uuid: t.arg.string({ required: true, description: 'The function’s UUID.' }) },
    resolve: async (project, args, ctx) => {
      const uuid = validateHogFunctionId(args.uuid);
      try {
        return await ctx.loaders.hogFunctions.load({ projectId: project.projectId, uuid });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));

builder.objectFields(ActivityLogEntryRef, (t) => ({
  hogFunction: t.field({
    type: HogFunctionRef,
    nullable: true,
    description: 'The hog function this entry is about, when scope is HogFunction and it can still be read.',
    // Batched per project with the other entries of the page: several functions of one project are
    // read from a list page when that is fewer calls than a retrieve each.
    resolve: async (entry, _args, ctx) => {
      const uuid = entry.scope === HOG_FUNCTION_SCOPE ? hogFunctionIdFromText(entry.itemId) : null;
      if (uuid === null) return null;
      const key = { projectId: entry.projectId, uuid };
      try {
        return await ctx.loaders.hogFunctions.load(key, { fromLists: true });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
