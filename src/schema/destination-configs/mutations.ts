// The destination-config mutations and their payloads (inputs: destination-config-inputs.ts).
// Each resolver validates its input and calls the request's config writes
// (loaders/destination-configs/writes.ts), which send the write once and prime what the request holds, so a
// payload's fields cost no extra read.

import { validateConfigId, validateProjectId } from '../../core/ids.ts';
import { badUserInput } from '../../errors/codes.ts';
import type { ConfigRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { configGlobalId, decodeConfigGlobalId } from '../global-id.ts';
import { clientMutationIdField, deletePayload } from '../payloads.ts';
import { DestinationConfigRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';
import {
  CreateInput,
  DeleteInput,
  RearrangeInput,
  RunJobInput,
  UpdateInput,
  writableFields,
} from './inputs.ts';

interface ConfigPayload {
  clientMutationId: string | null;
  /** A promise when it is read again after the write: then only this field can fail. */
  destinationConfig: ConfigRecord | Promise<ConfigRecord>;
}

function configPayload(name: string, description: string, configDescription: string) {
  return builder.objectRef<ConfigPayload>(name).implement({
    description,
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      destinationConfig: t.field({
        type: DestinationConfigRef,
        description: configDescription,
        resolve: (p) => p.destinationConfig,
      }),
    }),
  });
}

const DeletePayload = deletePayload(
  'DeleteDestinationConfigPayload',
  'The result of deleting a destination config.',
  'config',
);

const RearrangePayload = builder
  .objectRef<{ clientMutationId: string | null; destinationConfigs: ConfigRecord[] }>(
    'RearrangeDestinationConfigsPayload',
  )
  .implement({
    description: 'The result of rearranging destination configs.',
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      destinationConfigs: t.field({
        type: [DestinationConfigRef],
        description: 'The configs as PostHog answered the rearrange, each with its new `order`.',
        // Every enabled config of the project, counted as one upstream page.
        extensions: priced({ calls: 0, list: { assumed: 100 } }),
        resolve: (p) => p.destinationConfigs,
      }),
    }),
  });

builder.mutationFields((t) => ({
  createDestinationConfig: t.field({
    type: configPayload(
      'CreateDestinationConfigPayload',
      'The result of creating a destination config.',
      'The new config as PostHog answered the create, with its `id` for later mutations.',
    ),
    nullable: true,
    description: needsScopes(
      'Creates a legacy plugin config (POST …/pipeline_destination_configs/).',
      'plugin:write',
    ),
    deprecationReason: `PostHog no longer creates plugin configs; destinations are hog functions. Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    args: {
      input: t.arg({
        type: CreateInput,
        required: true,
        description: 'The project, plugin and order of the new config, and any settings.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const plugin = validateConfigId(input.plugin, 'plugin');
      const fields = { plugin, ...writableFields(input), order: input.order };
      const destinationConfig = await ctx.loaders.configWrites.create(projectId, fields);
      return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
    },
  }),
  updateDestinationConfig: t.field({
    type: configPayload(
      'UpdateDestinationConfigPayload',
      'The result of updating a destination config.',
      'The config after the change, as PostHog answered the PATCH.',
    ),
    nullable: true,
    description: needsScopes(
      'Changes a legacy plugin config: enable or pause it, rename it, move it, change its filters or settings (PATCH …/pipeline_destination_configs/:id/).',
      'plugin:write',
    ),
    args: {
      input: t.arg({
        type: UpdateInput,
        required: true,
        description: 'The config’s global id and the fields to change; fields left out keep their values.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, databaseId } = decodeConfigGlobalId(input.id);
      const destinationConfig = await ctx.loaders.configWrites.update(
        { projectId, id: databaseId },
        writableFields(input),
      );
      return { clientMutationId: input.clientMutationId ?? null, destinationConfig };
    },
  }),
}));

builder.mutationFields((t) => ({
  deleteDestinationConfig: t.field({
    type: DeletePayload,
    nullable: true,
    description: needsScopes(
      'Deletes a legacy plugin config (DELETE …/pipeline_destination_configs/:id/); PostHog only disables and hides it.',
      'plugin:write',
    ),
    args: {
      input: t.arg({
        type: DeleteInput,
        required: true,
        description: 'The global id of the config to delete.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, databaseId } = decodeConfigGlobalId(input.id);
      const numericProjectId = await ctx.loaders.configWrites.delete({ projectId, id: databaseId });
      return {
        clientMutationId: input.clientMutationId ?? null,
        deletedId: configGlobalId(numericProjectId, databaseId),
      };
    },
  }),
}));

// Writes that act on several configs or on the plugin: a job, an order.
builder.mutationFields((t) => ({
  runDestinationConfigJob: t.field({
    type: configPayload(
      'RunDestinationConfigJobPayload',
      'The result of queueing a plugin job.',
      'The config whose plugin queued the job, read again when the job’s answer carries none.',
    ),
    nullable: true,
    description: needsScopes(
      'Queues a job of the config’s plugin (POST …/pipeline_destination_configs/:id/job/ with {"job": {type, payload, operation}}).',
      'plugin:write',
    ),
    deprecationReason: `PostHog removed plugin jobs. Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    args: {
      input: t.arg({
        type: RunJobInput,
        required: true,
        description: 'The config’s global id and the job to queue.',
      }),
    },
    extensions: priced({ calls: 2 }),
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
    description: needsScopes(
      'Sets the order of several configs of a project at once (PATCH …/pipeline_destination_configs/rearrange/ with {"orders": {id: order}}). With projectId "@current", the project is read once (GET /api/projects/@current/, project:read) to check that each id is of it.',
      'plugin:write',
    ),
    deprecationReason: `PostHog no longer rearranges plugin configs for API keys (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    args: {
      input: t.arg({
        type: RearrangeInput,
        required: true,
        description: 'The project and each config’s new position.',
      }),
    },
    extensions: priced({ calls: 1 }),
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
