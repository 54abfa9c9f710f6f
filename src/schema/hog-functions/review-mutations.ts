// A hog function's review cycle as mutations (products/cdp/backend/api/hog_function.py@0019077):
// preview a publish (its token), publish the staged draft, discard it, restore a revision into
// it. PostHog's 409s are CONFLICT with extensions.reason STALE_UPDATE or DRAFT_EXISTS
// (upstream/posthog/conflict.ts).

import { badUserInput } from '../../errors/codes.ts';
import type { HogFunctionKey } from '../../loaders/hog-functions/functions.ts';
import type { HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { decodeHogFunctionGlobalId } from '../global-id.ts';
import { CLIENT_MUTATION_ID, clientMutationIdField } from '../payloads.ts';
import { HogFunctionRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

const clientMutationId = { description: CLIENT_MUTATION_ID };
const functionId = (action: string) =>
  ({ required: true, description: `The global id (\`HogFunction.id\`) of the function ${action}.` }) as const;

const PreviewInput = builder.inputType('PreviewHogFunctionPublishInput', {
  description: 'The function whose staged draft to preview.',
  fields: (t) => ({
    id: t.id(functionId('whose draft to preview')),
    clientMutationId: t.string(clientMutationId),
  }),
});
const PublishInput = builder.inputType('PublishHogFunctionDraftInput', {
  description: 'The function whose staged draft to publish, and the preview’s token.',
  fields: (t) => ({
    id: t.id(functionId('whose draft to publish')),
    confirmToken: t.string({
      description:
        'previewHogFunctionPublish’s confirmToken: required for an enabled function, not for a disabled one; valid 15 minutes.',
    }),
    clientMutationId: t.string(clientMutationId),
  }),
});
const DiscardInput = builder.inputType('DiscardHogFunctionDraftInput', {
  description: 'The function whose staged draft to discard.',
  fields: (t) => ({
    id: t.id(functionId('whose draft to discard')),
    clientMutationId: t.string(clientMutationId),
  }),
});
const RestoreInput = builder.inputType('RestoreHogFunctionRevisionInput', {
  description: 'The function, the revision to stage as its draft, and whether to replace a staged one.',
  fields: (t) => ({
    id: t.id(functionId('to restore a revision of')),
    version: t.int({ required: true, description: 'The revision’s version (HogFunctionRevision.version).' }),
    overwrite: t.boolean({
      description: 'true replaces a draft already staged; otherwise that is CONFLICT (DRAFT_EXISTS).',
    }),
    clientMutationId: t.string(clientMutationId),
  }),
});

interface FunctionPayload {
  clientMutationId: string | null;
  hogFunction: HogFunctionRecord;
}

/** The preview's answer; the function is read only when selected (PostHog's preview does not answer it). */
interface PreviewAnswer {
  clientMutationId: string | null;
  key: HogFunctionKey;
  confirmToken: string;
  changedFields: string[];
  draftUpdatedAt: string;
}

const functionPayload = (name: string, description: string, functionDescription: string) =>
  builder.objectRef<FunctionPayload>(name).implement({
    description,
    fields: (t) => ({
      hogFunction: t.field({
        type: HogFunctionRef,
        nullable: true,
        description: functionDescription,
        resolve: (p) => p.hogFunction,
      }),
      clientMutationId: clientMutationIdField(t),
    }),
  });

const PreviewPayload = builder.objectRef<PreviewAnswer>('PreviewHogFunctionPublishPayload').implement({
  description: 'What publishing the staged draft would change; nothing changed.',
  fields: (t) => ({
    hogFunction: t.field({
      type: HogFunctionRef,
      nullable: true,
      description: 'The function as it is (GET …/hog_functions/:id/: PostHog’s preview does not answer it).',
      // PostHog's preview does not answer the function: it is read when selected.
      extensions: priced({ calls: 1 }),
      resolve: (p, _args, ctx) => ctx.loaders.hogFunctions.load(p.key),
    }),
    confirmToken: t.exposeString('confirmToken', {
      description: 'The token publishHogFunctionDraft takes.',
    }),
    changedFields: t.exposeStringList('changedFields', {
      description:
        'The config fields the publish would change, as PostHog names them (hog, inputs, filters, …).',
    }),
    draftUpdatedAt: t.field({
      type: 'DateTime',
      description: 'When the previewed draft was staged.',
      resolve: (p) => p.draftUpdatedAt,
    }),
    clientMutationId: clientMutationIdField(t),
  }),
});

const scoped = (text: string) => needsScopes(text, 'hog_function:write');

builder.mutationFields((t) => ({
  previewHogFunctionPublish: t.field({
    type: PreviewPayload,
    nullable: true,
    description: scoped(
      'Previews publishing the staged draft (POST …/publish/ with confirm=false): changes nothing; says which fields would change and hands the token publishHogFunctionDraft takes (valid 15 minutes). Nothing staged: BAD_USER_INPUT.',
    ),
    args: {
      input: t.arg({
        type: PreviewInput,
        required: true,
        description: 'The function whose draft to preview.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const key = decodeHogFunctionGlobalId(input.id);
      const preview = await ctx.loaders.hogFunctionHistory.preview(key);
      return { ...preview, clientMutationId: input.clientMutationId ?? null, key };
    },
  }),
  publishHogFunctionDraft: t.field({
    type: functionPayload(
      'PublishHogFunctionDraftPayload',
      'The function after its draft was published.',
      'The function as PostHog answered the publish: its draft now live, its version one higher.',
    ),
    nullable: true,
    description: scoped(
      'Publishes the staged draft (POST …/publish/ with confirm=true): it becomes the live config, a new version. An enabled function needs the preview’s confirmToken; a token that no longer matches (the draft or the function changed since) is CONFLICT (STALE_UPDATE).',
    ),
    args: {
      input: t.arg({ type: PublishInput, required: true, description: 'The function and the token.' }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const key = decodeHogFunctionGlobalId(input.id);
      const hogFunction = await ctx.loaders.hogFunctionHistory.publish(key, input.confirmToken ?? null);
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
}));

builder.mutationFields((t) => ({
  discardHogFunctionDraft: t.field({
    type: functionPayload(
      'DiscardHogFunctionDraftPayload',
      'The function without its staged draft.',
      'The function as PostHog answered the discard: its draft null, its live config unchanged.',
    ),
    nullable: true,
    description: scoped(
      'Discards the staged draft (POST …/discard_draft/); with nothing staged, answers the function as it is (no error).',
    ),
    args: {
      input: t.arg({
        type: DiscardInput,
        required: true,
        description: 'The function whose draft to discard.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const hogFunction = await ctx.loaders.hogFunctionHistory.discard(decodeHogFunctionGlobalId(input.id));
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
  restoreHogFunctionRevision: t.field({
    type: functionPayload(
      'RestoreHogFunctionRevisionPayload',
      'The function with the revision staged as its draft.',
      'The function as PostHog answered the restore: the revision staged as its draft, its live config unchanged.',
    ),
    nullable: true,
    description: scoped(
      'Stages a revision as the draft, not the live config (POST …/revisions/:version/restore/); publish it to apply it. A draft already staged and overwrite not true: CONFLICT (DRAFT_EXISTS).',
    ),
    args: {
      input: t.arg({ type: RestoreInput, required: true, description: 'The function and the version.' }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      if (input.version < 0) throw badUserInput('version is 0 or more.', { field: 'version' });
      const key = { ...decodeHogFunctionGlobalId(input.id), version: input.version };
      const hogFunction = await ctx.loaders.hogFunctionHistory.restore(key, input.overwrite ?? null);
      return { clientMutationId: input.clientMutationId ?? null, hogFunction };
    },
  }),
}));
