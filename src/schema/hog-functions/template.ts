// HogFunctionTemplate: what a hog function can be made from (PostHog's template gallery), the
// Project fields that list and read them, and a function's own template (the same type).

import { validateTemplateId } from '../../core/ids.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { isNotFound } from '../../errors/codes.ts';
import { builder } from '../builder.ts';
import { arrayConnection } from '../connections/array.ts';
import { offsetConnection } from '../connections/offset.ts';
import { priced } from '../cost/price.ts';
import { TEMPLATE_LIST } from '../cost/rules.ts';
import { jsonField } from '../field-options.ts';
import { HogFunctionTemplateRef, isRecordOf, ProjectRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

builder.objectType(HogFunctionTemplateRef, {
  description:
    'A template from PostHog’s gallery: the code, inputs and filters a new hog function starts from. Pass its `id` as `templateId` to createHogFunction, with a value for each required input of `inputsSchema`.',
  isTypeOf: isRecordOf('HogFunctionTemplate'),
  fields: (t) => ({
    id: t.exposeString('id', {
      description:
        'The template’s id, e.g. template-webhook or plugin-<repository>: createHogFunction’s `templateId`.',
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'The template’s name in PostHog’s gallery.',
    }),
    description: t.exposeString('description', {
      nullable: true,
      description: 'What a function made from the template does.',
    }),
    type: t.exposeString('type', {
      nullable: true,
      description:
        'The type of function it makes: destination, transformation, site_app, …; typed: `typeValue`.',
    }),
    status: t.exposeString('status', {
      nullable: true,
      description:
        'stable, alpha, beta, hidden, coming_soon or deprecated (PostHog lists no deprecated one); typed: `statusValue`.',
    }),
    category: t.field(jsonField('The gallery’s categories for it, e.g. ["Custom"].', (x) => x.category)),
    free: t.exposeBoolean('free', {
      nullable: true,
      description: 'Whether a free plan may use it.',
    }),
    code: t.exposeString('code', {
      nullable: true,
      description: 'The code a function made from it runs (Hog, or JavaScript for site types).',
    }),
    codeLanguage: t.exposeString('codeLanguage', {
      nullable: true,
      description: 'The language of `code`: hog or javascript; typed: `codeLanguageValue`.',
    }),
    inputsSchema: t.field(
      jsonField(
        'The inputs a function made from it takes: each with key, type, label, required and secret. createHogFunction needs a value for each required one.',
        (x) => x.inputsSchema,
      ),
    ),
    filters: t.field(
      jsonField(
        'The events a function made from it receives, unless the create says others.',
        (x) => x.filters,
      ),
    ),
    masking: t.field(
      jsonField('The template’s default masking: how repeated events are dropped.', (x) => x.masking),
    ),
    mappingTemplates: t.field(
      jsonField(
        'Mappings offered for a function made from it: each with name, filters, inputs and inputs_schema.',
        (x) => x.mappingTemplates,
      ),
    ),
    iconUrl: t.exposeString('iconUrl', {
      nullable: true,
      description: 'Where the template’s icon is served.',
    }),
  }),
});

const HogFunctionTemplateConnection = builder.connectionObject(
  {
    type: HogFunctionTemplateRef,
    name: 'HogFunctionTemplateConnection',
    description: 'Hog function templates in the upstream’s order (most used first within a page).',
    edgesField: { description: 'This page’s templates, in PostHog’s order, each with its cursor.' },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many templates match the types (and search) asked for.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'HogFunctionTemplateEdge',
    description: 'A hog function template and its cursor.',
    nodeField: { description: 'A template a hog function can be made from: pass its `id` as `templateId`.' },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  hogFunctionTemplates: t.connection(
    {
      type: HogFunctionTemplateRef,
      nullable: true,
      description: needsScopes(
        'The templates a hog function can be made from (GET …/hog_function_templates/), both ways. PostHog lists destination templates unless `types` says otherwise, and never deprecated ones. Paged by offset, as PostHog pages it: an item created or deleted between two pages shifts the rest by one, so the next page may repeat or skip an item; reading again from the start is exact.',
        'hog_function:read',
      ),
      args: {
        types: t.arg.stringList({
          description:
            'Only templates of these types, e.g. ["destination", "transformation"]; default ["destination"].',
        }),
        search: t.arg.string({
          description:
            'Only templates whose id, name or description holds this text, any case. PostHog has no such filter: the gateway searches the first 500 templates of the types.',
        }),
      },
      extensions: priced(TEMPLATE_LIST),
      resolve: (project, args, ctx) => {
        const types = args.types ?? null;
        const search = args.search ?? null;
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify(['hog-function-templates', id, types, search]),
          );
        const templates = ctx.loaders.hogFunctionTemplates;
        if (search !== null)
          return arrayConnection(list, args, () => templates.search(project.projectId, types, search));
        return offsetConnection(list, args, (limit, offset) =>
          templates.page({ projectId: project.projectId, limit, offset, types }),
        );
      },
    },
    HogFunctionTemplateConnection,
  ),
  hogFunctionTemplate: t.field({
    type: HogFunctionTemplateRef,
    nullable: true,
    description: needsScopes(
      'A template by its id, deprecated and hidden ones too; null when the upstream has none of that id.',
      'hog_function:read',
    ),
    args: { id: t.arg.string({ required: true, description: 'The template’s id, e.g. "template-slack".' }) },
    extensions: priced({ calls: 1 }),
    resolve: async (project, args, ctx) => {
      const id = validateTemplateId(args.id);
      try {
        return await ctx.loaders.hogFunctionTemplates.load(project.projectId, id);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
