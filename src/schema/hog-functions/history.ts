// A hog function's history and staged config: HogFunction.draft (in the function's own answer, no
// call), HogFunction.revisions (GET …/revisions/, newest first) and HogFunction.revision(version:)
// (GET …/revisions/:version/). A listed revision carries no config: reading its config reads the
// revision (once a request). Secret inputs read {"secret": true} (normalize-hog-function-history.ts).
import type { GatewayContext } from '../../context.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { badUserInput, isNotFound } from '../../errors/codes.ts';
import type {
  HogFunctionDraftRecord,
  HogFunctionRevisionRecord,
} from '../../upstream/posthog/hog-function-history.ts';
import { builder } from '../builder.ts';
import { offsetConnection } from '../connections/offset.ts';
import { priced } from '../cost/price.ts';
import { GLOBAL_ID, OFFSET_LIST } from '../cost/rules.ts';
import { jsonField } from '../field-options.ts';
import { encodeGlobalId } from '../global-id.ts';
import { ActivityUserRef, HogFunctionRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

export const HogFunctionRevisionRef = builder.objectRef<HogFunctionRevisionRecord>('HogFunctionRevision');
const HogFunctionDraftRef = builder.objectRef<HogFunctionDraftRecord>('HogFunctionDraft');

export const hogFunctionRevisionGlobalId = (projectId: string, uuid: string, version: number) =>
  encodeGlobalId('HogFunctionRevision', `${projectId}:${uuid}:${version}`);

const CONTENT = ['hog', 'inputsSchema', 'inputs', 'filters', 'mappings', 'masking'] as const;
const DESCRIPTIONS: Record<(typeof CONTENT)[number], string> = {
  hog: 'The Hog source (JavaScript for the site_* types).',
  inputsSchema: 'The declared inputs: [{key, type, label, required, secret, …}].',
  inputs: 'The input values as {key: {value, …}}; a secret one reads {"secret": true}, never its value.',
  filters: 'Which events the function runs on, as PostHog stores them.',
  mappings: 'The mappings ([{name, filters, inputs, inputs_schema}]); null when none.',
  masking: 'How repeated events are skipped ({ttl, hash, threshold}); null when none.',
};

HogFunctionDraftRef.implement({
  description:
    'The config PostHog has staged for review and not yet published: the fields a publish would set. Secret inputs read {"secret": true}.',
  fields: (t) => ({
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When it was last staged (PostHog’s draft_updated_at).',
      resolve: (d) => d.updatedAt,
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'A staged name; null: PostHog stages config only.',
    }),
    description: t.exposeString('description', {
      nullable: true,
      description: 'A staged description; null: PostHog stages config only.',
    }),
    hog: t.exposeString('hog', { nullable: true, description: `Staged: ${DESCRIPTIONS.hog}` }),
    inputsSchema: t.field(
      jsonField(`Staged: ${DESCRIPTIONS.inputsSchema}`, (d: HogFunctionDraftRecord) => d.inputsSchema),
    ),
    inputs: t.field(jsonField(`Staged: ${DESCRIPTIONS.inputs}`, (d: HogFunctionDraftRecord) => d.inputs)),
    filters: t.field(jsonField(`Staged: ${DESCRIPTIONS.filters}`, (d: HogFunctionDraftRecord) => d.filters)),
    mappings: t.field(
      jsonField(`Staged: ${DESCRIPTIONS.mappings}`, (d: HogFunctionDraftRecord) => d.mappings),
    ),
    masking: t.field(jsonField(`Staged: ${DESCRIPTIONS.masking}`, (d: HogFunctionDraftRecord) => d.masking)),
  }),
});

/** A listed revision's config, read from the revision itself (once a request). */
const withContent = (r: HogFunctionRevisionRecord, ctx: GatewayContext) =>
  r.hasContent
    ? r
    : ctx.loaders.hogFunctionHistory.revision({ projectId: r.projectId, uuid: r.uuid, version: r.version });

/** A revision's JSON config field, read from the revision when the list left it out. */
const contentField = (field: Exclude<(typeof CONTENT)[number], 'hog'>) => ({
  type: 'JSON' as const,
  nullable: true as const,
  description: DESCRIPTIONS[field],
  // A listed revision reads its config from the revision (once a request, whatever fields).
  extensions: priced({ calls: 1 }),
  resolve: (r: HogFunctionRevisionRecord, _args: unknown, ctx: GatewayContext) =>
    mapMaybePromise(withContent(r, ctx), (c) => c[field] ?? null),
});

builder.objectType(HogFunctionRevisionRef, {
  description: 'One stored version of a hog function’s config. PostHog keeps no secret values in revisions.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: (value) => (value as { __typename?: unknown } | null)?.__typename === 'HogFunctionRevision',
  fields: (t) => ({
    id: t.id({
      description: 'The revision’s global id.',
      extensions: priced(GLOBAL_ID),
      resolve: (r, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(r.projectId), (id) =>
          hogFunctionRevisionGlobalId(id, r.uuid, r.version),
        ),
    }),
    version: t.exposeInt('version', { description: 'The version this config was (HogFunction.version).' }),
    hogFunction: t.field({
      type: HogFunctionRef,
      description: 'The function it is a version of (GET …/hog_functions/:id/ unless this request read it).',
      extensions: priced({ calls: 1 }),
      resolve: (r, _args, ctx) => ctx.loaders.hogFunctions.load({ projectId: r.projectId, uuid: r.uuid }),
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When PostHog stored it.',
      resolve: (r) => r.createdAt,
    }),
    createdBy: t.expose('createdBy', {
      type: ActivityUserRef,
      nullable: true,
      description:
        'Who made the change; null for the first snapshot PostHog takes and for a user since deleted.',
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'Null: PostHog’s revisions keep config only.',
    }),
    hog: t.string({
      nullable: true,
      description: `${DESCRIPTIONS.hog} A listed revision reads its config from GET …/revisions/:version/.`,
      extensions: priced({ calls: 1 }),
      resolve: (r, _args, ctx) => mapMaybePromise(withContent(r, ctx), (c) => c.hog ?? null),
    }),
    inputsSchema: t.field({ ...contentField('inputsSchema') }),
    inputs: t.field({ ...contentField('inputs') }),
    filters: t.field({ ...contentField('filters') }),
    mappings: t.field({ ...contentField('mappings') }),
    masking: t.field({ ...contentField('masking') }),
  }),
});

const RevisionConnection = builder.connectionObject(
  {
    type: HogFunctionRevisionRef,
    name: 'HogFunctionRevisionConnection',
    description: 'A hog function’s revisions, newest first.',
    edgesField: { description: 'This page’s revisions, newest first, each with its cursor.' },
    fields: (t) => ({
      totalCount: t.int({
        nullable: true,
        description: 'How many revisions the function has: PostHog’s `count`.',
        resolve: (c) => c.totalCount ?? null,
      }),
    }),
  },
  {
    name: 'HogFunctionRevisionEdge',
    description: 'A revision and its cursor.',
    nodeField: { description: 'One stored version of the function’s config.' },
  },
);

builder.objectFields(HogFunctionRef, (t) => ({
  draft: t.expose('draft', {
    type: HogFunctionDraftRef,
    nullable: true,
    description:
      'What PostHog has staged for review and not yet published (an agent’s edit of an enabled destination, a restored revision); null when nothing is staged. In the function’s own answer: no call.',
  }),
  revisions: t.connection(
    {
      type: HogFunctionRevisionRef,
      nullable: true,
      description: needsScopes(
        'Its revisions, newest first, one per config change (GET …/hog_functions/:id/revisions/). A listed revision’s config (hog, inputs, …) is read from GET …/revisions/:version/.',
        'hog_function:read',
      ),
      extensions: priced(OFFSET_LIST),
      resolve: (fn, args, ctx) => {
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(fn.projectId), (id) =>
            JSON.stringify(['hog-function-revisions', id, fn.uuid]),
          );
        return offsetConnection(list, args, (limit, offset) =>
          ctx.loaders.hogFunctionHistory.revisions({ projectId: fn.projectId, uuid: fn.uuid, limit, offset }),
        );
      },
    },
    RevisionConnection,
  ),
  revision: t.field({
    type: HogFunctionRevisionRef,
    nullable: true,
    description: needsScopes(
      'One version of its config (GET …/hog_functions/:id/revisions/:version/); null when the function has no such version.',
      'hog_function:read',
    ),
    args: {
      version: t.arg.int({ required: true, description: 'The version, as HogFunction.version counts.' }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (fn, { version }, ctx) => {
      if (version < 0)
        throw badUserInput('version is a version of the function: 0 or more.', { field: 'version' });
      try {
        return await ctx.loaders.hogFunctionHistory.revision({
          projectId: fn.projectId,
          uuid: fn.uuid,
          version,
        });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
