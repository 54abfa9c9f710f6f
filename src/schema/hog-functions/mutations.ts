// The hog function mutations and their payloads (inputs: hog-function-inputs.ts). Each resolver
// validates its input and calls the request's hog function writes (loaders/hog-functions/writes.ts).

import { validateProjectId } from '../../core/ids.ts';
import { badUserInput } from '../../errors/codes.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { decodeHogFunctionGlobalId, hogFunctionGlobalId } from '../global-id.ts';
import { clientMutationIdField, deletePayload } from '../payloads.ts';
import { HogFunctionRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';
import { warnIfStoredDisabled } from '../stored-warnings.ts';
import { explainCreateError } from './create-errors.ts';
import { CreateInput, DeleteInput, RearrangeInput, TestInput, UpdateInput, writable } from './inputs.ts';
import { HogFunctionLogEntryRef } from './runs.ts';

function payload(name: string, description: string, hogFunctionDescription: string) {
  return builder
    .objectRef<{ clientMutationId: string | null; hogFunction: HogFunctionRecord }>(name)
    .implement({
      description,
      fields: (t) => ({
        clientMutationId: clientMutationIdField(t),
        hogFunction: t.field({
          type: HogFunctionRef,
          nullable: true,
          description: hogFunctionDescription,
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
      status: t.exposeString('status', {
        description: 'How the run ended: success, error, or skipped (the event did not pass the filters).',
      }),
      result: t.field({
        type: 'JSON',
        nullable: true,
        description: 'What the function’s code returned (any JSON); null when it returned nothing.',
        resolve: (p) => p.result,
      }),
      errors: t.exposeStringList('errors', {
        description:
          'PostHog’s error messages for a run that failed, e.g. a missing input; empty on success.',
      }),
      logs: t.field({
        type: [HogFunctionLogEntryRef],
        description:
          'The lines the run logged, in order: its print() calls and PostHog’s own notes (mocked fetches included).',
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
        description: 'The project’s transformations as PostHog answered, each with its new `executionOrder`.',
        resolve: (p) => p.hogFunctions,
      }),
    }),
  });

builder.mutationFields((t) => ({
  createHogFunction: t.field({
    type: payload(
      'CreateHogFunctionPayload',
      'The result of creating a hog function.',
      'The new function as PostHog answered the create, with its `id` for later mutations; secret inputs read {"secret": true}.',
    ),
    nullable: true,
    description: needsScopes(
      'Creates a hog function (POST …/hog_functions/), from a template (`templateId`) or from code. A refused create with an unknown templateId says how to list templates; one missing a required input names it and its type.',
      'hog_function:write',
    ),
    args: {
      input: t.arg({
        type: CreateInput,
        required: true,
        description: 'The project and the new function: a templateId with its inputs, or hog code.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx, info) => {
      const projectId = validateProjectId(input.projectId);
      const fields = { ...writable(input), type: input.type, template_id: input.templateId };
      try {
        const hogFunction = await ctx.loaders.hogFunctionWrites.create(projectId, fields);
        warnIfStoredDisabled(ctx, info, input.enabled, hogFunction);
        return { clientMutationId: input.clientMutationId ?? null, hogFunction };
      } catch (error) {
        const attempt = { projectId, templateId: input.templateId, inputsSchema: input.inputsSchema };
        throw await explainCreateError(error, attempt, ctx.loaders);
      }
    },
  }),
  updateHogFunction: t.field({
    type: payload(
      'UpdateHogFunctionPayload',
      'The result of updating a hog function.',
      'The function after the change, as PostHog answered the PATCH (with its bumped `version` when the code or inputs changed).',
    ),
    nullable: true,
    description: needsScopes(
      'Changes a hog function: enable or pause it, rename it, change its code, inputs, filters, masking or mappings (PATCH …/hog_functions/:id/).',
      'hog_function:write',
    ),
    args: {
      input: t.arg({
        type: UpdateInput,
        required: true,
        description: 'The function’s global id and the fields to change; fields left out keep their values.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx, info) => {
      const { projectId, uuid } = decodeHogFunctionGlobalId(input.id);
      const hogFunction = await ctx.loaders.hogFunctionWrites.update({ projectId, uuid }, writable(input));
      warnIfStoredDisabled(ctx, info, input.enabled, hogFunction);
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
}));

builder.mutationFields((t) => ({
  deleteHogFunction: t.field({
    type: DeletePayload,
    nullable: true,
    description: needsScopes(
      'Deletes a hog function (PATCH …/hog_functions/:id/ with {"deleted": true}, as PostHog refuses DELETE to API keys); it then drops out of lists and reads.',
      'hog_function:write',
    ),
    args: {
      input: t.arg({
        type: DeleteInput,
        required: true,
        description: 'The global id of the function to delete.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const { projectId, uuid } = decodeHogFunctionGlobalId(input.id);
      const numericProjectId = await ctx.loaders.hogFunctionWrites.delete({ projectId, uuid });
      return {
        clientMutationId: input.clientMutationId ?? null,
        deletedId: hogFunctionGlobalId(numericProjectId, uuid),
      };
    },
  }),
}));

builder.mutationFields((t) => ({
  testHogFunction: t.field({
    type: TestPayload,
    nullable: true,
    description: needsScopes(
      'Runs a hog function on an event, with async calls mocked by default (POST …/hog_functions/:id/invocations/, or …/new/invocations/ for an unsaved one). By id without `configuration`, the stored function is read first (GET …/hog_functions/:id/) and its configuration sent.',
      'hog_function:write',
    ),
    args: {
      input: t.arg({
        type: TestInput,
        required: true,
        description: 'The function (its id, or a configuration and projectId) and the event to run it on.',
      }),
    },
    // A saved function tested without a configuration is read first (its stored one is sent).
    extensions: priced({ calls: 2 }),
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
    description: needsScopes(
      'Sets the execution order of a project’s transformations (PATCH …/hog_functions/rearrange/). With projectId "@current", the project is read once (GET /api/projects/@current/, project:read) to check that each id is of it.',
      'hog_function:write',
    ),
    args: {
      input: t.arg({
        type: RearrangeInput,
        required: true,
        description: 'The project and each transformation’s new place.',
      }),
    },
    extensions: priced({ calls: 1 }),
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
