// The destination-config mutations' input types, and how their writable fields become a write:
// a field left out is not sent; a field that may not be cleared is refused as null.
import { badUserInput } from '../../errors/codes.ts';
import type { ConfigWrite } from '../../upstream/posthog/config-body.ts';
import { builder } from '../builder.ts';
import { CLIENT_MUTATION_ID } from '../payloads.ts';

const MASK_NOTE = 'a secret left as its mask (as `config` reads it) keeps its stored value';

export const CreateInput = builder.inputType('CreateDestinationConfigInput', {
  description: 'A new destination config. plugin and order are required upstream.',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    projectId: t.string({
      required: true,
      description: 'The project to add the config to: an integer id, or "@current".',
    }),
    plugin: t.int({ required: true, description: 'The integer id of an installed plugin to run.' }),
    order: t.int({
      required: true,
      description: 'Where the new config runs in the pipeline: configs run lowest order first.',
    }),
    enabled: t.boolean({
      description: 'Whether the new config receives events at once; left out, PostHog decides.',
    }),
    name: t.string({ description: 'A name for the new config; left out, PostHog shows the plugin’s.' }),
    description: t.string({ description: 'Free text about what the new config is for.' }),
    deleted: t.boolean({ description: 'Creates the config already soft-deleted (true); rarely wanted.' }),
    filters: t.field({
      type: 'JSON',
      description:
        'Which events reach the new config: {events: [...], actions: [...]}; left out, every event.',
    }),
    config: t.field({
      type: 'JSON',
      description: `The new config’s plugin settings, an object of the plugin’s config keys; sent as a form field holding JSON, the only way PostHog reads it.`,
    }),
  }),
});

export const UpdateInput = builder.inputType('UpdateDestinationConfigInput', {
  description: 'Changes to a destination config; fields left out stay as they are.',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    id: t.id({
      required: true,
      description: 'The global id (`DestinationConfig.id`) of the config to change.',
    }),
    enabled: t.boolean({ description: 'false pauses the config, true resumes it; null is refused.' }),
    order: t.int({ description: 'A new position in the pipeline (lowest runs first); null is refused.' }),
    name: t.string({ description: 'A new name; null clears it (PostHog then shows the plugin’s).' }),
    description: t.string({ description: 'New free text about the config; null clears it.' }),
    deleted: t.boolean({ description: 'true soft-deletes the config, false restores it; null is refused.' }),
    filters: t.field({
      type: 'JSON',
      description: 'New event filters, replacing the stored ones whole: {events: [...], actions: [...]}.',
    }),
    config: t.field({
      type: 'JSON',
      description: `The plugin’s settings, an object; sent as a form field holding JSON (how PostHog reads it); ${MASK_NOTE}.`,
    }),
  }),
});

export const DeleteInput = builder.inputType('DeleteDestinationConfigInput', {
  description: 'The config to delete (PostHog only disables it).',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    id: t.id({ required: true, description: 'The global id of the config to delete (PostHog disables it).' }),
  }),
});

const JobInput = builder.inputType('DestinationJobInput', {
  description: 'A plugin job: one of the plugin’s public jobs.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'The job’s name, e.g. "Export historical events".' }),
    payload: t.field({
      type: 'JSON',
      description: 'The job’s arguments, an object as the plugin’s job schema asks.',
    }),
    operation: t.string({
      description: 'What to do with the job, e.g. "start" or "stop"; the upstream defaults to "start".',
    }),
  }),
});

export const RunJobInput = builder.inputType('RunDestinationConfigJobInput', {
  description: 'Queues a job of the config’s plugin.',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    id: t.id({ required: true, description: 'The global id of the config whose plugin runs the job.' }),
    job: t.field({
      type: JobInput,
      required: true,
      description: 'Which of the plugin’s public jobs to queue, with its payload.',
    }),
  }),
});

const OrderInput = builder.inputType('DestinationOrderInput', {
  description: 'A config and its new position.',
  fields: (t) => ({
    id: t.id({
      required: true,
      description: 'The global id of a config to move; it must be of the input’s project.',
    }),
    order: t.int({
      required: true,
      description: 'The config’s new position in the pipeline (lowest runs first).',
    }),
  }),
});

export const RearrangeInput = builder.inputType('RearrangeDestinationConfigsInput', {
  description: 'New positions for configs of one project.',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    projectId: t.string({
      required: true,
      description: 'The project whose pipeline to reorder: an integer id, or "@current".',
    }),
    orders: t.field({
      type: [OrderInput],
      required: true,
      description: 'The configs to move and their new positions; configs left out keep theirs.',
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
