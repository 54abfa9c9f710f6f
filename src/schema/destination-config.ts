// DestinationConfig, its connection, the Project fields that reach it, and its mutations.
import type { GatewayContext } from '../context.ts';
import { badUserInput, isNotFound, writeAppliedButUnread } from '../errors/codes.ts';
import { validateConfigId, validateProjectId } from '../ids.ts';
import type { ConfigKey } from '../loaders/index.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import { type ConfigWrite, configWriteBody } from '../upstream/config-body.ts';
import { PATHS } from '../upstream/paths.ts';
import { type ConfigRecord, normalizeConfig } from '../upstream/types.ts';
import { ActivityLogConnection, activityConnection, CONFIG_SCOPE } from './activity-log.ts';
import { builder } from './builder.ts';
import { offsetConnection } from './connections/offset.ts';
import { configGlobalId, decodeConfigGlobalId } from './global-id.ts';
import { projectRecord } from './project.ts';
import {
  ActivityLogEntryRef,
  DestinationConfigRef,
  DestinationFrontendRef,
  isRecordOf,
  ProjectRef,
} from './refs.ts';

const keyOf = (config: ConfigRecord): ConfigKey => ({ projectId: config.projectId, id: config.databaseId });

/** The name the cursors of a project's config list carry: the numeric project id (see cursorProjectId). */
const configsList = (ctx: GatewayContext, projectId: string) => () =>
  mapMaybePromise(ctx.loaders.cursorProjectId(projectId), (id) => `configs:${id}`);

/** A field some answers leave out: read from the record, or from a retrieve of the config. */
async function fullField<K extends 'pluginInfo' | 'deliveryRate24h'>(
  config: ConfigRecord,
  field: K,
  ctx: GatewayContext,
): Promise<NonNullable<ConfigRecord[K]> | null> {
  const value =
    config[field] !== undefined
      ? config[field]
      : (await ctx.loaders.retrieveConfig.load(keyOf(config)))[field];
  return (value ?? null) as NonNullable<ConfigRecord[K]> | null;
}

builder.objectType(DestinationConfigRef, {
  description:
    'A pipeline destination config: a plugin, its settings and its place in the project’s pipeline.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: isRecordOf('DestinationConfig'),
  fields: (t) => ({
    // One id whatever path reached the config: `@current` is resolved to the numeric project id.
    id: t.id({
      description: 'The global id: opaque, stable, accepted by `node` and `nodes`.',
      resolve: (config, _args, ctx) =>
        mapMaybePromise(ctx.loaders.numericProjectId(config.projectId), (id) =>
          configGlobalId(id, config.databaseId),
        ),
    }),
    databaseId: t.exposeInt('databaseId', { description: 'The config’s integer id upstream.' }),
    project: t.field({
      type: ProjectRef,
      description: 'The project the config belongs to.',
      resolve: (config) => projectRecord(config.projectId),
    }),
    plugin: t.exposeInt('plugin', { description: 'The id of the plugin this config runs.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the destination receives events.' }),
    order: t.exposeInt('order', {
      description: 'Its position in the pipeline (the upstream lists by order, then plugin).',
    }),
    name: t.string({ nullable: true, description: 'Its name.', resolve: (c) => c.name }),
    description: t.string({ nullable: true, description: 'Its description.', resolve: (c) => c.description }),
    deleted: t.exposeBoolean('deleted', { description: 'Whether it is soft-deleted.' }),
    filters: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Which events reach it, as the upstream stores them.',
      resolve: (c) => c.filters,
    }),
    config: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'The plugin settings: an object (PostHog, secrets masked) or a string (as the interface document types it).',
      resolve: (c) => c.config,
    }),
    error: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The last error, if the upstream reports one.',
      resolve: (c) => c.error,
    }),
    teamId: t.int({ nullable: true, description: 'The upstream team id.', resolve: (c) => c.teamId }),
    pluginInfo: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'The plugin’s description. Lists leave it out upstream; it is then read from the config itself.',
      resolve: (config, _args, ctx) => fullField(config, 'pluginInfo', ctx),
    }),
    deliveryRate24h: t.float({
      nullable: true,
      description: 'The share of events delivered in the last 24 hours, in [0, 1].',
      resolve: (config, _args, ctx) => fullField(config, 'deliveryRate24h', ctx),
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was created.',
      resolve: (c) => c.createdAt,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed.',
      resolve: (c) => c.updatedAt,
    }),
    frontend: t.field({
      type: DestinationFrontendRef,
      nullable: true,
      description: 'The plugin’s frontend (GET …/:id/frontend).',
      resolve: (config, _args, ctx) => ctx.loaders.frontend.load(keyOf(config)),
    }),
    activity: t.connection(
      {
        type: ActivityLogEntryRef,
        nullable: true,
        description:
          'The activity log entries about this config (scope PluginConfig, item_id = its databaseId).',
        resolve: (config, args, ctx) =>
          activityConnection(
            ctx,
            config.projectId,
            { scope: CONFIG_SCOPE, itemId: String(config.databaseId) },
            args,
          ),
      },
      ActivityLogConnection,
    ),
  }),
});

builder.objectType(DestinationFrontendRef, {
  description: 'What the upstream serves as a config’s frontend.',
  fields: (t) => ({
    contentType: t.exposeString('contentType', { description: 'The upstream’s Content-Type.' }),
    config: t.field({
      type: DestinationConfigRef,
      nullable: true,
      description: 'Set when the upstream answers with a config object (as the interface document says).',
      resolve: (f) => f.config,
    }),
    source: t.string({
      nullable: true,
      description: 'Set when the upstream answers with JavaScript source (as PostHog does).',
      resolve: (f) => f.source,
    }),
  }),
});

const DestinationConfigConnection = builder.connectionObject(
  {
    type: DestinationConfigRef,
    name: 'DestinationConfigConnection',
    description: 'Destination configs in the upstream’s order, as a Relay connection.',
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many configs the upstream lists.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  { name: 'DestinationConfigEdge', description: 'A destination config and its cursor.' },
);

builder.objectFields(ProjectRef, (t) => ({
  destinationConfigs: t.connection(
    {
      type: DestinationConfigRef,
      nullable: true,
      description:
        'The project’s destination configs in the upstream’s order (first/after and last/before over its limit/offset list).',
      resolve: (project, args, ctx) =>
        offsetConnection(configsList(ctx, project.projectId), args, (limit, offset) =>
          ctx.loaders.listConfigs({ projectId: project.projectId, limit, offset }),
        ),
    },
    DestinationConfigConnection,
  ),
  destinationConfig: t.field({
    type: DestinationConfigRef,
    nullable: true,
    description: 'A config by its integer id; null when the upstream answers 404.',
    args: { databaseId: t.arg.int({ required: true, description: 'The config’s integer id.' }) },
    resolve: async (project, args, ctx) => {
      const id = validateConfigId(args.databaseId);
      try {
        return await ctx.loaders.config.load({ projectId: project.projectId, id });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));

// Mutations. Each writes once (the upstream client never retries a write) and primes the
// request's loaders with the upstream's answer, so the payload's fields cost no extra read.

interface ConfigPayload {
  clientMutationId: string | null;
  /** A promise when it is read again after the write: then only this field can fail. */
  destinationConfig: ConfigRecord | Promise<ConfigRecord>;
}

function configPayload(name: string, description: string) {
  return builder.objectRef<ConfigPayload>(name).implement({
    description,
    fields: (t) => ({
      clientMutationId: t.string({
        nullable: true,
        description: 'Echoed from the input.',
        resolve: (p) => p.clientMutationId,
      }),
      destinationConfig: t.field({
        type: DestinationConfigRef,
        description: 'The config as the upstream answered.',
        resolve: (p) => p.destinationConfig,
      }),
    }),
  });
}

const writableInputFields = {
  enabled: 'Whether the destination receives events.',
  name: 'Its name.',
  description: 'Its description.',
  deleted: 'Soft-deletes (true) or restores (false) it.',
  filters: 'Which events reach it.',
  config:
    'Plugin settings. Sent the way the upstream accepts them (a form field holding JSON); a masked secret left as the mask keeps its stored value.',
};

const CreateInput = builder.inputType('CreateDestinationConfigInput', {
  description: 'A new destination config. plugin and order are required upstream.',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    plugin: t.int({ required: true, description: 'The id of the plugin to run.' }),
    order: t.int({ required: true, description: 'Its position in the pipeline.' }),
    enabled: t.boolean({ description: writableInputFields.enabled }),
    name: t.string({ description: writableInputFields.name }),
    description: t.string({ description: writableInputFields.description }),
    deleted: t.boolean({ description: writableInputFields.deleted }),
    filters: t.field({ type: 'JSON', description: writableInputFields.filters }),
    config: t.field({ type: 'JSON', description: writableInputFields.config }),
  }),
});

const UpdateInput = builder.inputType('UpdateDestinationConfigInput', {
  description: 'Changes to a destination config; fields left out stay as they are.',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    id: t.id({ required: true, description: 'The config’s global id.' }),
    enabled: t.boolean({ description: writableInputFields.enabled }),
    order: t.int({ description: 'Its position in the pipeline.' }),
    name: t.string({ description: writableInputFields.name }),
    description: t.string({ description: writableInputFields.description }),
    deleted: t.boolean({ description: writableInputFields.deleted }),
    filters: t.field({ type: 'JSON', description: writableInputFields.filters }),
    config: t.field({ type: 'JSON', description: writableInputFields.config }),
  }),
});

const DeleteInput = builder.inputType('DeleteDestinationConfigInput', {
  description: 'The config to delete (PostHog only disables it).',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    id: t.id({ required: true, description: 'The config’s global id.' }),
  }),
});

const JobInput = builder.inputType('DestinationJobInput', {
  description: 'A plugin job: one of the plugin’s public jobs.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'The job’s name, e.g. "Export historical events".' }),
    payload: t.field({ type: 'JSON', description: 'The job’s payload.' }),
    operation: t.string({ description: 'The operation; the upstream defaults to "start".' }),
  }),
});

const RunJobInput = builder.inputType('RunDestinationConfigJobInput', {
  description: 'Queues a job of the config’s plugin.',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    id: t.id({ required: true, description: 'The config’s global id.' }),
    job: t.field({ type: JobInput, required: true, description: 'The job to run.' }),
  }),
});

const OrderInput = builder.inputType('DestinationOrderInput', {
  description: 'A config and its new position.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The config’s global id.' }),
    order: t.int({ required: true, description: 'Its new position.' }),
  }),
});

const RearrangeInput = builder.inputType('RearrangeDestinationConfigsInput', {
  description: 'New positions for configs of one project.',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    orders: t.field({
      type: [OrderInput],
      required: true,
      description: 'The configs and their new positions.',
    }),
  }),
});

const DeletePayload = builder
  .objectRef<{ clientMutationId: string | null; deletedId: string }>('DeleteDestinationConfigPayload')
  .implement({
    description: 'The result of deleting a destination config.',
    fields: (t) => ({
      clientMutationId: t.string({
        nullable: true,
        description: 'Echoed from the input.',
        resolve: (p) => p.clientMutationId,
      }),
      deletedId: t.exposeID('deletedId', { description: 'The global id of the deleted config.' }),
    }),
  });

const RearrangePayload = builder
  .objectRef<{ clientMutationId: string | null; destinationConfigs: ConfigRecord[] }>(
    'RearrangeDestinationConfigsPayload',
  )
  .implement({
    description: 'The result of rearranging destination configs.',
    fields: (t) => ({
      clientMutationId: t.string({
        nullable: true,
        description: 'Echoed from the input.',
        resolve: (p) => p.clientMutationId,
      }),
      destinationConfigs: t.field({
        type: [DestinationConfigRef],
        description: 'The configs whose order the upstream reports after the change.',
        resolve: (p) => p.destinationConfigs,
      }),
    }),
  });

/** Whether two project ids, either of which may be `@current`, name one project. */
async function sameProject(ctx: GatewayContext, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const [x, y] = await Promise.all([ctx.loaders.numericProjectId(a), ctx.loaders.numericProjectId(b)]);
  return x === y;
}

function notNull<T>(value: T | null | undefined, field: string): T | undefined {
  if (value === null)
    throw badUserInput(`\`${field}\` cannot be null; leave it out to keep the current value.`, { field });
  return value;
}

function writableFields(input: {
  enabled?: boolean | null;
  order?: number | null;
  name?: string | null;
  description?: string | null;
  deleted?: boolean | null;
  filters?: unknown;
  config?: unknown;
}): ConfigWrite {
  return {
    enabled: notNull(input.enabled, 'enabled'),
    order: notNull(input.order, 'order'),
    name: input.name,
    description: input.description,
    deleted: notNull(input.deleted, 'deleted'),
    filters: input.filters,
    config: input.config,
  };
}

async function writeConfig(
  ctx: GatewayContext,
  call: { method: 'POST' | 'PATCH'; path: string; fields: ConfigWrite },
  projectId: string,
): Promise<ConfigRecord> {
  const answer = await ctx.upstream.request({
    method: call.method,
    path: call.path,
    ...configWriteBody(call.fields),
  });
  const record = normalizeConfig(answer.body, projectId, 'write');
  ctx.loaders.replaceConfig(record);
  return record;
}

/** Reads the config again, bypassing what this request held: for writes that answer no body. */
async function rereadConfig(ctx: GatewayContext, key: ConfigKey): Promise<ConfigRecord> {
  ctx.loaders.forgetConfig(key);
  return ctx.loaders.config.load(key);
}

builder.mutationFields((t) => ({
  createDestinationConfig: t.field({
    type: configPayload('CreateDestinationConfigPayload', 'The result of creating a destination config.'),
    nullable: true,
    description: 'Creates a destination config (POST …/pipeline_destination_configs).',
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const plugin = validateConfigId(input.plugin, 'plugin');
      const destinationConfig = await writeConfig(
        ctx,
        {
          method: 'POST',
          path: PATHS.configs(projectId),
          fields: { plugin, ...writableFields(input), order: input.order },
        },
        projectId,
      );
      return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
    },
  }),
  updateDestinationConfig: t.field({
    type: configPayload('UpdateDestinationConfigPayload', 'The result of updating a destination config.'),
    nullable: true,
    description: 'Changes a destination config (PATCH …/pipeline_destination_configs/:id).',
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { projectId, databaseId } = decodeConfigGlobalId(input.id);
      const destinationConfig = await writeConfig(
        ctx,
        { method: 'PATCH', path: PATHS.config(projectId, databaseId), fields: writableFields(input) },
        projectId,
      );
      return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
    },
  }),
  deleteDestinationConfig: t.field({
    type: DeletePayload,
    nullable: true,
    description: 'Deletes a destination config (DELETE …/:id; PostHog only disables it).',
    args: { input: t.arg({ type: DeleteInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { projectId, databaseId } = decodeConfigGlobalId(input.id);
      // Known before the write, so that nothing can fail after the upstream has acted.
      const deletedId = configGlobalId(await ctx.loaders.numericProjectId(projectId), databaseId);
      await ctx.upstream.request({ method: 'DELETE', path: PATHS.config(projectId, databaseId) });
      ctx.loaders.forgetConfig({ projectId, id: databaseId });
      return { clientMutationId: input.clientMutationId ?? null, deletedId };
    },
  }),
  runDestinationConfigJob: t.field({
    type: configPayload('RunDestinationConfigJobPayload', 'The result of queueing a plugin job.'),
    nullable: true,
    description:
      'Queues a job of the config’s plugin (POST …/:id/job with {"job": {type, payload, operation}}).',
    args: { input: t.arg({ type: RunJobInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { projectId, databaseId } = decodeConfigGlobalId(input.id);
      const job = Object.fromEntries(
        Object.entries({
          type: input.job.type,
          payload: input.job.payload,
          operation: input.job.operation,
        }).filter(([, v]) => v !== undefined && v !== null),
      );
      const answer = await ctx.upstream.request({
        method: 'POST',
        path: PATHS.configJob(projectId, databaseId),
        json: { job },
      });
      // PostHog answers 200 with an empty body; the interface document, with the config.
      const isConfig = answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body);
      if (isConfig) {
        const destinationConfig = normalizeConfig(answer.body, projectId, 'write');
        ctx.loaders.replaceConfig(destinationConfig);
        return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
      }
      // The job is queued whatever happens next: a failed re-read must not read as a failed job.
      const destinationConfig = rereadConfig(ctx, { projectId, id: databaseId }).catch((error: unknown) => {
        throw writeAppliedButUnread(error, 'The job was queued');
      });
      return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
    },
  }),
  rearrangeDestinationConfigs: t.field({
    type: RearrangePayload,
    nullable: true,
    description:
      'Sets the order of several configs of a project at once (PATCH …/rearrange with {"orders": {id: order}}).',
    args: { input: t.arg({ type: RearrangeInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const orders: Record<string, number> = {};
      for (const [index, entry] of input.orders.entries()) {
        const field = `orders[${index}].id`;
        const decoded = decodeConfigGlobalId(entry.id, field);
        if (!(await sameProject(ctx, decoded.projectId, projectId))) {
          throw badUserInput(`${field} is a config of project ${decoded.projectId}, not of ${projectId}.`, {
            field,
          });
        }
        orders[String(decoded.databaseId)] = entry.order;
      }
      const answer = await ctx.upstream.request({
        method: 'PATCH',
        path: PATHS.rearrange(projectId),
        json: { orders },
      });
      // PostHog answers with the list of enabled configs; the interface document, with one config.
      const destinationConfigs = Array.isArray(answer.body)
        ? answer.body.map((raw) => normalizeConfig(raw, projectId, 'rearrange'))
        : answer.body === null
          ? []
          : [normalizeConfig(answer.body, projectId, 'write')];
      for (const record of destinationConfigs) ctx.loaders.replaceConfig(record);
      return { clientMutationId: input.clientMutationId ?? null, destinationConfigs };
    },
  }),
}));
