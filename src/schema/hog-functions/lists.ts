// Where hog functions are read from: Project.hogFunctions (PostHog's list, both ways, with its
// filters), Project.hogFunction by UUID, and an activity entry's cross-link to the function it
// is about, batched per page. The type itself: hog-function.ts.

import { hogFunctionIdFromText, validateHogFunctionId } from '../../core/ids.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { isNotFound } from '../../errors/codes.ts';
import { builder } from '../builder.ts';
import { offsetConnection } from '../connections/offset.ts';
import { priced } from '../cost/price.ts';
import { CROSS_LINK, OFFSET_LIST } from '../cost/rules.ts';
import { ActivityLogEntryRef, HogFunctionRef, ProjectRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';
import { HOG_FUNCTION_SCOPE } from './type.ts';

const HogFunctionConnection = builder.connectionObject(
  {
    type: HogFunctionRef,
    name: 'HogFunctionConnection',
    description:
      'Hog functions in the upstream’s order (execution order, then the latest change), as a Relay connection.',
    edgesField: { description: 'This page’s hog functions, in PostHog’s order, each with its cursor.' },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many functions match the filters in all: PostHog’s `count` for the list.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'HogFunctionEdge',
    description: 'A hog function and its cursor.',
    nodeField: { description: 'A hog function as the list page answered it.' },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  hogFunctions: t.connection(
    {
      type: HogFunctionRef,
      nullable: true,
      description: needsScopes(
        'The project’s hog functions of every type (GET …/hog_functions/), both ways: destinations, transformations, sources, site apps. types, enabled and search go to the upstream’s filters; deleted functions are left out. Paged by offset, as PostHog pages it: an item created or deleted between two pages shifts the rest by one, so the next page may repeat or skip an item; reading again from the start is exact.',
        'hog_function:read',
      ),
      args: {
        types: t.arg.stringList({
          description: 'Only these types, e.g. ["destination", "site_destination"].',
        }),
        enabled: t.arg.boolean({ description: 'Only enabled (true) or disabled (false) functions.' }),
        search: t.arg.string({ description: 'In the name, then the description (at most 200 characters).' }),
      },
      extensions: priced(OFFSET_LIST),
      resolve: (project, args, ctx) => {
        const filters = { types: args.types, enabled: args.enabled, search: args.search };
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify([
              'hog-functions',
              id,
              filters.types ?? null,
              filters.enabled ?? null,
              filters.search ?? null,
            ]),
          );
        return offsetConnection(list, args, (limit, offset) =>
          ctx.loaders.hogFunctions.page({ projectId: project.projectId, limit, offset, filters }),
        );
      },
    },
    HogFunctionConnection,
  ),
  hogFunction: t.field({
    type: HogFunctionRef,
    nullable: true,
    description: needsScopes(
      'One hog function by its UUID (GET …/hog_functions/:id/); null when PostHog answers 404 (none, or deleted).',
      'hog_function:read',
    ),
    args: { uuid: t.arg.string({ required: true, description: 'The function’s UUID.' }) },
    extensions: priced({ calls: 1 }),
    resolve: async (project, args, ctx) => {
      const uuid = validateHogFunctionId(args.uuid);
      try {
        return await ctx.loaders.hogFunctions.load({ projectId: project.projectId, uuid });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));

builder.objectFields(ActivityLogEntryRef, (t) => ({
  hogFunction: t.field({
    type: HogFunctionRef,
    nullable: true,
    description: needsScopes(
      'The hog function this entry is about, when `scope` is HogFunction: read from PostHog (batched with the page’s other entries); null for another scope or when the function is gone.',
      'hog_function:read',
    ),
    extensions: priced(CROSS_LINK),
    // Batched per project with the other entries of the page: several functions of one project are
    // read from a list page when that is fewer calls than a retrieve each.
    resolve: async (entry, _args, ctx) => {
      const uuid = entry.scope === HOG_FUNCTION_SCOPE ? hogFunctionIdFromText(entry.itemId) : null;
      if (uuid === null) return null;
      const key = { projectId: entry.projectId, uuid };
      try {
        return await ctx.loaders.hogFunctions.load(key, { fromLists: true });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
