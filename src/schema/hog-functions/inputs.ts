// The hog function mutations' input types, and how their writable fields become a write in
// PostHog's names (a field left out is not sent).
import type { HogFunctionWrite } from '../../loaders/hog-functions/writes.ts';
import { builder } from '../builder.ts';
import { CLIENT_MUTATION_ID } from '../payloads.ts';

const clientMutationId = { description: CLIENT_MUTATION_ID };

export const CreateInput = builder.inputType('CreateHogFunctionInput', {
  description: 'A new hog function: from a template (templateId) or from code (hog).',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({
      required: true,
      description: 'The project to create the function in: an integer id, or "@current".',
    }),
    type: t.string({
      description:
        'What kind of function to make: destination (the default), transformation, site_destination, site_app, source_webhook, …',
    }),
    templateId: t.string({
      description:
        'A template’s `id` from Project.hogFunctionTemplates, e.g. "template-slack": fills hog, inputsSchema, name, description and iconUrl from it.',
    }),
    name: t.string({ description: 'The new function’s name; left out with a template, the template’s.' }),
    description: t.string({
      description: 'What the new function is for; left out with a template, the template’s.',
    }),
    enabled: t.boolean({
      description: 'Whether the new function runs at once; left out, PostHog’s default applies.',
    }),
    hog: t.string({ description: 'The Hog source to run, when not taken from a template.' }),
    inputsSchema: t.field({
      type: 'JSON',
      description:
        'The inputs the new function declares: [{key, type, label, required, secret}]; left out with a template, the template’s.',
    }),
    inputs: t.field({
      type: 'JSON',
      description:
        'A value for each input of the schema, as {key: {value}}, e.g. {"url": {"value": "https://…"}}; every required one must be given.',
    }),
    filters: t.field({
      type: 'JSON',
      description: 'Which events reach the new function: {events: [...], actions: [...], properties: [...]}.',
    }),
    masking: t.field({
      type: 'JSON',
      description:
        'How the new function skips repeated events: {ttl, hash, threshold}; left out, none are skipped.',
    }),
    mappings: t.field({
      type: 'JSON',
      description:
        'For destinations that send several kinds of event: [{name, filters, inputs, inputs_schema}].',
    }),
  }),
});

export const UpdateInput = builder.inputType('UpdateHogFunctionInput', {
  description: 'Changes to a hog function; fields left out stay as they are.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The global id (`HogFunction.id`) of the function to change.' }),
    name: t.string({ description: 'A new name for the function.' }),
    description: t.string({ description: 'New text about what the function is for.' }),
    enabled: t.boolean({ description: 'false pauses the function, true resumes it.' }),
    hog: t.string({ description: 'New Hog source; PostHog compiles it and bumps `version`.' }),
    inputsSchema: t.field({
      type: 'JSON',
      description: 'A new list of declared inputs, replacing the stored one whole.',
    }),
    inputs: t.field({
      type: 'JSON',
      description:
        'New input values as {key: {value}}; a secret input sent as {"secret": true}, or left out, keeps its stored value.',
    }),
    filters: t.field({
      type: 'JSON',
      description: 'New event filters, replacing the stored ones whole.',
    }),
    masking: t.field({
      type: 'JSON',
      description: 'A new masking rule ({ttl, hash, threshold}), replacing the stored one.',
    }),
    mappings: t.field({
      type: 'JSON',
      description:
        'New mappings, replacing the stored list whole; a secret input within keeps its value as in `inputs`.',
    }),
    baseUpdatedAt: t.field({
      type: 'DateTime',
      description:
        'The updatedAt you last read: if the function changed since, nothing is written and the answer is CONFLICT (STALE_UPDATE). Left out, the update applies whatever changed.',
    }),
  }),
});

export const DeleteInput = builder.inputType('DeleteHogFunctionInput', {
  description: 'The function to delete (PATCH {"deleted": true} upstream).',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The global id of the function to delete.' }),
  }),
});

export const TestInput = builder.inputType('TestHogFunctionInput', {
  description: 'A test run of a function, saved or not.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({
      description: 'The function to test; its stored configuration is used unless configuration is given.',
    }),
    projectId: t.string({ description: 'Required for a function not saved yet (with no id).' }),
    configuration: t.field({
      type: 'JSON',
      description:
        'The function to run, as createHogFunction’s fields in PostHog’s names ({hog, inputs_schema, inputs, filters, mappings, …}); required with no id.',
    }),
    globals: t.field({
      type: 'JSON',
      description:
        'The event to run on, as PostHog’s globals: {event: {event, properties, distinct_id, …}, person, …}.',
    }),
    mockAsyncFunctions: t.boolean({
      description: 'Defaults to true: fetch and other async calls are mocked.',
    }),
  }),
});

const OrderInput = builder.inputType('HogFunctionOrderInput', {
  description: 'A function and its new place.',
  fields: (t) => ({
    id: t.id({
      required: true,
      description: 'The global id of a transformation to move; it must be of the input’s project.',
    }),
    executionOrder: t.int({
      required: true,
      description: 'The transformation’s new place: lowest runs first.',
    }),
  }),
});

export const RearrangeInput = builder.inputType('RearrangeHogFunctionsInput', {
  description: 'New places for transformations of one project.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({
      required: true,
      description: 'The project whose transformations to reorder: an integer id, or "@current".',
    }),
    orders: t.field({
      type: [OrderInput],
      required: true,
      description: 'The transformations to move and their new places.',
    }),
  }),
});

/** The writable fields given, in PostHog's names (a field left out is not sent). */
export function writable(input: {
  name?: string | null;
  description?: string | null;
  enabled?: boolean | null;
  hog?: string | null;
  inputsSchema?: unknown;
  inputs?: unknown;
  filters?: unknown;
  masking?: unknown;
  mappings?: unknown;
  baseUpdatedAt?: string | null;
}): HogFunctionWrite {
  return {
    name: input.name,
    description: input.description,
    enabled: input.enabled,
    hog: input.hog,
    inputs_schema: input.inputsSchema,
    inputs: input.inputs,
    filters: input.filters,
    masking: input.masking,
    mappings: input.mappings,
    base_updated_at: input.baseUpdatedAt ?? undefined,
  };
}
