// The destination-config mutations' input types, and how their writable fields become a write:
// a field left out is not sent; a field that may not be cleared is refused as null.
import { badUserInput } from '../errors/codes.ts';
import type { ConfigWrite } from '../upstream/config-body.ts';
import { builder } from './builder.ts';

const writableInputFields = {
  enabled: 'Whether the destination receives events.',
  name: 'Its name.',
  description: 'Its description.',
  deleted: 'Soft-deletes (true) or restores (false) it.',
  filters: 'Which events reach it.',
  config:
    'Plugin settings. Sent the way the upstream accepts them (a form field holding JSON); a masked secret left as the mask keeps its stored value.',
};

export const CreateInput = builder.inputType('CreateDestinationConfigInput', {
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

export const UpdateInput = builder.inputType('UpdateDestinationConfigInput', {
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

export const DeleteInput = builder.inputType('DeleteDestinationConfigInput', {
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

export const RunJobInput = builder.inputType('RunDestinationConfigJobInput', {
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

export const RearrangeInput = builder.inputType('RearrangeDestinationConfigsInput', {
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

function notNull<T>(value: T | null | undefined, field: string): T | undefined {
  if (value === null)
    throw badUserInput(`\`${field}\` cannot be null; leave it out to keep the current value.`, { field });
  return value;
}

export function writableFields(input: {
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
