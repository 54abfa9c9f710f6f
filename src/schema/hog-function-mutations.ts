// The hog function mutations and their payloads (inputs: hog-function-inputs.ts). Each resolver
// validates its input and calls the request's hog function writes (loaders/hog-function-writes.ts).
import { badUserInput } from '../errors/codes.ts';
import { validateProjectId } from '../ids.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { decodeHogFunctionGlobalId, hogFunctionGlobalId } from './global-id.ts';
import { explainCreateError } from './hog-function-create-errors.ts';
import {
  CreateInput,
  DeleteInput,
  RearrangeInput,
  TestInput,
  UpdateInput,
  writable,
} from './hog-function-inputs.ts';
import { HogFunctionLogEntryRef } from './hog-function-runs.ts';
import { clientMutationIdField, deletePayload } from './payloads.ts';
import { HogFunctionRef } from './refs.ts';

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

builder.mutationFields((t) => ({
  createHogFunction: t.field({
    type: payload('CreateHogFunctionPayload', 'The result of creating a hog function.'),
    nullable: true,
    description: 'Creates a hog function (POST …/hog_functions/).',
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const fields = { ...writable(input), type: input.type, template_id: input.templateId };
      try {
        const hogFunction = await ctx.loaders.hogFunctionWrites.create(projectId, fields);
        return { clientMutationId: input.clientMutationId ?? null, hogFunction };
      } catch (error) {
        const attempt = { projectId, templateId: input.templateId, inputsSchema: input.inputsSchema };
        throw await explainCreateError(error, attempt, ctx.loaders);
      }
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
