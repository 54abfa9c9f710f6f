// The destination-config mutations: their inputs and payloads. Each resolver validates its input
// and calls the request's config writes (loaders/config-writes.ts), which send the write once and
// prime what the request holds, so a payload's fields cost no extra read.
import { badUserInput } from '../errors/codes.ts';
import { validateConfigId, validateProjectId } from '../ids.ts';
import type { ConfigWrite } from '../upstream/config-body.ts';
import type { ConfigRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { configGlobalId, decodeConfigGlobalId } from './global-id.ts';
import { DestinationConfigRef } from './refs.ts';

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

builder.mutationFields((t) => ({
  createDestinationConfig: t.field({
    type: configPayload('CreateDestinationConfigPayload', 'The result of creating a destination config.'),
    nullable: true,
    description: 'Creates a destination config (POST …/pipeline_destination_configs).',
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const plugin = validateConfigId(input.plugin, 'plugin');
      const fields = { plugin, ...writableFields(input), order: input.order };
      const destinationConfig = await ctx.loaders.configWrites.create(projectId, fields);
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
      const destinationConfig = await ctx.loaders.configWrites.update(
        { projectId, id: databaseId },
        writableFields(input),
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
      const numericProjectId = await ctx.loaders.configWrites.delete({ projectId, id: databaseId });
      return {
        clientMutationId: input.clientMutationId ?? null,
        deletedId: configGlobalId(numericProjectId, databaseId),
      };
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
      const { type, payload, operation } = input.job;
      const queued = await ctx.loaders.configWrites.runJob(
        { projectId, id: databaseId },
        { type, payload, operation },
      );
      return {
        clientMutationId: input.clientMutationId ?? null,
        destinationConfig: queued.destinationConfig,
      };
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
        if (!(await ctx.loaders.currentProject.isSameProject(decoded.projectId, projectId))) {
          throw badUserInput(`${field} is a config of project ${decoded.projectId}, not of ${projectId}.`, {
            field,
          });
        }
        orders[String(decoded.databaseId)] = entry.order;
      }
      const destinationConfigs = await ctx.loaders.configWrites.rearrange(projectId, orders);
      return { clientMutationId: input.clientMutationId ?? null, destinationConfigs };
    },
  }),
}));
