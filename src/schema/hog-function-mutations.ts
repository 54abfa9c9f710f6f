// The hog function mutations, their inputs and payloads. Each resolver validates its input and
// calls the request's hog function writes (loaders/hog-function-writes.ts).
import { badUserInput } from '../errors/codes.ts';
import { validateProjectId } from '../ids.ts';
import type { HogFunctionWrite } from '../loaders/hog-function-writes.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { decodeHogFunctionGlobalId, hogFunctionGlobalId } from './global-id.ts';
import { HogFunctionLogEntryRef } from './hog-function-runs.ts';
import { clientMutationIdField, deletePayload } from './payloads.ts';
import { HogFunctionRef } from './refs.ts';

const clientMutationId = { description: 'Echoed in the payload.' };

const CreateInput = builder.inputType('CreateHogFunctionInput', {
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

const UpdateInput = builder.inputType('UpdateHogFunctionInput', {
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

const DeleteInput = builder.inputType('DeleteHogFunctionInput', {
  description: 'The function to delete (PATCH {"deleted": true} upstream).',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    id: t.id({ required: true, description: 'The function’s global id.' }),
  }),
});

const TestInput = builder.inputType('TestHogFunctionInput', {
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

const RearrangeInput = builder.inputType('RearrangeHogFunctionsInput', {
  description: 'New places for transformations of one project.',
  fields: (t) => ({
    clientMutationId: t.string(clientMutationId),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    orders: t.field({ type: [OrderInput], required: true, description: 'The functions and their places.' }),
  }),
});

function payload(name: string, description: string) {
  return builder
    .objectRef<{ clientMutationId: string | null; hogFunction: HogFunctionRecord }>(name)
    .implement({
      description,
      fields: (t) => ({
        clientMutationId: clientMutationIdField(t),
        hogFunction: t.field({
          type: HogFunctionRef,
          nullable: true,
          description: 'As the upstream answered.',
          resolve: (p) => p.hogFunction,
        }),
      }),
    });
}

const DeletePayload = deletePayload(
  'DeleteHogFunctionPayload',
  'The result of deleting a hog function.',
  'function',
);

const TestPayload = builder
  .objectRef<{
    clientMutationId: string | null;
    status: string;
    result: unknown;
    errors: string[];
    logs: HogFunctionLogRecord[];
  }>('TestHogFunctionPayload')
  .implement({
    description: 'What a test run did.',
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      status: t.exposeString('status', { description: 'success, error or skipped.' }),
      result: t.field({
        type: 'JSON',
        nullable: true,
        description: 'What it returned.',
        resolve: (p) => p.result,
      }),
      errors: t.exposeStringList('errors', { description: 'What went wrong.' }),
      logs: t.field({
        type: [HogFunctionLogEntryRef],
        description: 'What it logged.',
        resolve: (p) => p.logs,
      }),
    }),
  });

const RearrangePayload = builder
  .objectRef<{ clientMutationId: string | null; hogFunctions: HogFunctionRecord[] }>(
    'RearrangeHogFunctionsPayload',
  )
  .implement({
    description: 'The result of rearranging transformations.',
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      hogFunctions: t.field({
        type: [HogFunctionRef],
        description: 'The functions, in their new order.',
        resolve: (p) => p.hogFunctions,
      }),
    }),
  });

/** The writable fields given, in PostHog's names (a field left out is not sent). */
function writable(input: {
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

builder.mutationFields((t) => ({
  createHogFunction: t.field({
    type: payload('CreateHogFunctionPayload', 'The result of creating a hog function.'),
    nullable: true,
    description: 'Creates a hog function (POST …/hog_functions/).',
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const fields = { ...writable(input), type: input.type, template_id: input.templateId };
      const hogFunction = await ctx.loaders.hogFunctionWrites.create(projectId, fields);
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
  updateHogFunction: t.field({
    type: payload('UpdateHogFunctionPayload', 'The result of updating a hog function.'),
    nullable: true,
    description: 'Changes a hog function (PATCH …/hog_functions/:id/).',
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { projectId, uuid } = decodeHogFunctionGlobalId(input.id);
      const hogFunction = await ctx.loaders.hogFunctionWrites.update({ projectId, uuid }, writable(input));
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
  deleteHogFunction: t.field({
    type: DeletePayload,
    nullable: true,
    description: 'Deletes a hog function (PATCH …/hog_functions/:id/ with {"deleted": true}).',
    args: { input: t.arg({ type: DeleteInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { projectId, uuid } = decodeHogFunctionGlobalId(input.id);
      const numericProjectId = await ctx.loaders.hogFunctionWrites.delete({ projectId, uuid });
      return {
        clientMutationId: input.clientMutationId ?? null,
        deletedId: hogFunctionGlobalId(numericProjectId, uuid),
      };
    },
  }),
  testHogFunction: t.field({
    type: TestPayload,
    nullable: true,
    description:
      'Runs a hog function on an event, with async calls mocked by default (POST …/:id/invocations/).',
    args: { input: t.arg({ type: TestInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const target = input.id
        ? decodeHogFunctionGlobalId(input.id)
        : input.projectId
          ? { projectId: validateProjectId(input.projectId), uuid: null }
          : null;
      if (!target)
        throw badUserInput('Give `id`, or `projectId` for a function not saved yet.', { field: 'id' });
      const ran = await ctx.loaders.hogFunctionWrites.test(target.projectId, target.uuid, input);
      return { clientMutationId: input.clientMutationId ?? null, ...ran };
    },
  }),
  rearrangeHogFunctions: t.field({
    type: RearrangePayload,
    nullable: true,
    description: 'Sets the execution order of transformations (PATCH …/hog_functions/rearrange/).',
    args: { input: t.arg({ type: RearrangeInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const orders: Record<string, number> = {};
      for (const [index, entry] of input.orders.entries()) {
        const field = `orders[${index}].id`;
        const decoded = decodeHogFunctionGlobalId(entry.id, field);
        if (!(await ctx.loaders.currentProject.isSameProject(decoded.projectId, projectId)))
          throw badUserInput(`${field} is a function of project ${decoded.projectId}, not of ${projectId}.`, {
            field,
          });
        orders[decoded.uuid] = entry.executionOrder;
      }
      const hogFunctions = await ctx.loaders.hogFunctionWrites.rearrange(projectId, orders);
      return { clientMutationId: input.clientMutationId ?? null, hogFunctions };
    },
  }),
}));
