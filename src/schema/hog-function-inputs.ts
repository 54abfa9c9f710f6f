// The hog function mutations' input types, and how their writable fields become a write in
// PostHog's names (a field left out is not sent).
import type { HogFunctionWrite } from '../loaders/hog-function-writes.ts';
import { builder } from './builder.ts';

const clientMutationId = { description: 'Echoed in the payload.' };

export const CreateInput = builder.inputType('CreateHogFunctionInput', {
  description: 'A new hog function: from a template (templateId) or from code (hog).',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    type: t.string({ description: 'Defaults to destination.' }),
    templateId: t.string({
      description: 'Fills hog, inputsSchema, name, description and iconUrl from the template.',
    }),
    name: t.string({ description: 'Its name.' }),
    description: t.string({ description: 'Its description.' }),
    enabled: t.boolean({ description: 'Whether it runs.' }),
    hog: t.string({ description: 'Its Hog source code.' }),
    inputsSchema: t.field({ type: 'JSON', description: 'The inputs it takes.' }),
    inputs: t.field({ type: 'JSON', description: 'Its inputs: {key: {value}}.' }),
    filters: t.field({ type: 'JSON', description: 'Which events reach it.' }),
    masking: t.field({ type: 'JSON', description: 'How it masks repeated events.' }),
    mappings: t.field({ type: 'JSON', description: 'Its mappings.' }),
  }),
});

export const UpdateInput = builder.inputType('UpdateHogFunctionInput', {
  description: 'Changes to a hog function; fields left out stay as they are.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The function’s global id.' }),
    name: t.string({ description: 'Its name.' }),
    description: t.string({ description: 'Its description.' }),
    enabled: t.boolean({ description: 'Whether it runs.' }),
    hog: t.string({ description: 'Its Hog source code.' }),
    inputsSchema: t.field({ type: 'JSON', description: 'The inputs it takes.' }),
    inputs: t.field({
      type: 'JSON',
      description: 'A secret input sent as {"secret": true}, or left out, keeps its stored value.',
    }),
    filters: t.field({ type: 'JSON', description: 'Which events reach it.' }),
    masking: t.field({ type: 'JSON', description: 'How it masks repeated events.' }),
    mappings: t.field({ type: 'JSON', description: 'Its mappings.' }),
  }),
});

export const DeleteInput = builder.inputType('DeleteHogFunctionInput', {
  description: 'The function to delete (PATCH {"deleted": true} upstream).',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The function’s global id.' }),
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
    configuration: t.field({ type: 'JSON', description: 'The function’s configuration to run.' }),
    globals: t.field({ type: 'JSON', description: 'The event to run on (PostHog’s globals).' }),
    mockAsyncFunctions: t.boolean({
      description: 'Defaults to true: fetch and other async calls are mocked.',
    }),
  }),
});

const OrderInput = builder.inputType('HogFunctionOrderInput', {
  description: 'A function and its new place.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The function’s global id.' }),
    executionOrder: t.int({ required: true, description: 'Its new place.' }),
  }),
});

export const RearrangeInput = builder.inputType('RearrangeHogFunctionsInput', {
  description: 'New places for transformations of one project.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    orders: t.field({ type: [OrderInput], required: true, description: 'The functions and their places.' }),
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
  };
}
