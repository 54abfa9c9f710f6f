// Destination: what a user calls a destination, whichever way PostHog keeps it (a hog function of a
// destination kind, a legacy plugin config, or a batch export), and Project.destinations, one
// connection over all three (loaders/destinations.ts decides what is in it).

import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { mapMaybePromise } from '../core/maybe-promise.ts';
import { DESTINATION_KINDS, type DestinationKind, type DestinationRecord } from '../loaders/destinations.ts';
import { ActivityLogConnection } from './activity/log.ts';
import { builder } from './builder.ts';
import { windowConnection } from './connections/array.ts';
import { priced } from './cost/price.ts';
import { DESTINATIONS_PRICE } from './cost/rules.ts';
import { checkedOrder, checkedSearch, DestinationOrderRef } from './destination-order.ts';
import { ActivityLogEntryRef, DestinationRef, ProjectRef } from './refs.ts';
import { needsScopes } from './scopes.ts';

export const DestinationKindRef = builder.enumType('DestinationKind', {
  description: 'The kinds of destination PostHog keeps, for Project.destinations(kinds:).',
  values: {
    HOG_FUNCTION: { description: 'Hog functions of the destination kinds (real-time destinations).' },
    PLUGIN_CONFIG: { description: 'Legacy plugin configs no migrated hog function supersedes.' },
    BATCH_EXPORT: { description: 'Batch exports: scheduled exports to a warehouse or bucket.' },
  } as const,
});

/** The refusal of one kind, located at the connection, naming the kind. */
const kindRefused = (error: GraphQLError, kind: DestinationKind, info: GraphQLResolveInfo) =>
  new GraphQLError(`${error.message} (${kind} destinations are left out of this list.)`, {
    path: pathOf(info),
    extensions: { ...error.extensions, kind },
  });

const pathOf = (info: GraphQLResolveInfo) => {
  const path: (string | number)[] = [];
  for (let at: GraphQLResolveInfo['path'] | undefined = info.path; at; at = at.prev) path.unshift(at.key);
  return path;
};

// The implementing types resolve every field themselves; these resolvers are never reached.
const own = (): never => {
  throw new Error('Destination fields are resolved by DestinationConfig, HogFunction and BatchExport.');
};

DestinationRef.implement({
  description:
    'What PostHog’s UI lists as a destination, whichever way PostHog keeps it: a HogFunction of a destination kind, a legacy plugin DestinationConfig, or a BatchExport. Select `__typename` and a fragment on a type for what only that kind has.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.id({
      description:
        'The destination’s global id: a HogFunction’s, a DestinationConfig’s or a BatchExport’s, as `__typename` says; `node` and the mutations of that kind take it.',
      resolve: own,
    }),
    name: t.string({
      nullable: true,
      description: 'The name PostHog’s destinations list shows; null when none was given.',
      resolve: own,
    }),
    enabled: t.boolean({
      description: 'Whether events reach the destination now; false while it is paused.',
      resolve: own,
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the destination was created (ISO 8601); null when the upstream does not say.',
      resolve: own,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the destination was last changed (ISO 8601); null when the upstream does not say.',
      resolve: own,
    }),
    activity: t.connection(
      {
        type: ActivityLogEntryRef,
        nullable: true,
        description: needsScopes(
          'The activity log entries about the destination, newest first: scope HogFunction, PluginConfig or BatchExport, by its uuid or integer id.',
          'activity_log:read',
        ),
        resolve: own,
      },
      ActivityLogConnection,
    ),
  }),
});

const DestinationConnection = builder.connectionObject(
  {
    type: DestinationRef,
    name: 'DestinationConnection',
    description:
      'A project’s destinations of every kind asked for (hog functions, then legacy configs, then batch exports, unless `orderBy` says otherwise), as a Relay connection.',
    edgesField: {
      description:
        'This page’s destinations in the list’s order (by default hog functions first, then legacy configs, then batch exports), each with its cursor.',
    },
    fields: (t) => ({
      totalCount: t.int({
        description:
          'How many destinations the merged list holds in all (after `enabled`, `kinds` and `search`).',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'DestinationEdge',
    description: 'A destination and its cursor.',
    nodeField: {
      description: 'A destination: a HogFunction, a DestinationConfig or a BatchExport (see `__typename`).',
    },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  destinations: t.connection(
    {
      type: DestinationRef,
      nullable: true,
      description: needsScopes(
        'Every destination of the project, one list (see `orderBy` for other orders): hog functions of the destination kinds (destination, site_destination, legacy_destination; GET …/hog_functions/), then the legacy plugin configs (GET …/pipeline_destination_configs/) that no enabled legacy_destination supersedes (one config retrieve per distinct plugin says which), then the batch exports (GET …/batch_exports/; PostHog’s internal Workflows exports never appear). Each kind’s first page says its count, and a page reads only the upstream pages it covers, so cursors stay valid across kinds at any size; plugin configs are read whole while an enabled legacy_destination supersedes some, and configs and batch exports when `enabled` or `search` is given (PostHog cannot filter them so). An upstream without one of the lists contributes none of it.',
        'hog_function:read',
        'plugin:read',
        'batch_export:read',
      ),
      args: {
        enabled: t.arg.boolean({ description: 'Only enabled (true) or disabled (false) destinations.' }),
        kinds: t.arg({
          type: [DestinationKindRef],
          description:
            'Only these kinds (every kind when left out). A kind the key may not read is left out of the list and reported as an error with this field’s path and its `kind`.',
        }),
        search: t.arg.string({
          description:
            'Only destinations whose name or description holds this text, any case (a batch export has no description: its name). Sent to PostHog’s hog function list (its `search`; its fuzzy matches, answered when nothing matches exactly, are left out) and applied by the gateway to legacy configs and batch exports, which PostHog cannot search (they are then read whole). Surrounding spaces are ignored; at most 200 characters (BAD_USER_INPUT, before any upstream call).',
        }),
        orderBy: t.arg({
          type: DestinationOrderRef,
          description:
            'Sort the whole list by name, last change or kind (every kind is then read whole, up to 10,000 of each). Left out: hog functions, then legacy configs, then batch exports, each in PostHog’s order (by relevance under `search`). A cursor belongs to one `search` and `orderBy` (and `enabled` and `kinds`): another’s is BAD_USER_INPUT.',
        }),
      },
      extensions: priced(DESTINATIONS_PRICE),
      resolve: async (project, args, ctx, info) => {
        const enabled = args.enabled ?? null;
        const kinds = args.kinds?.length ? [...new Set(args.kinds)].sort() : [...DESTINATION_KINDS];
        const search = checkedSearch(args.search);
        const order = checkedOrder(args.orderBy);
        // The default list keeps its cursors of before `search` and `orderBy`.
        const asked =
          search === null && order === null ? [] : [search, order && [order.field, order.direction]];
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify(['destinations', id, enabled, kinds, ...asked]),
          );
        const query = { enabled, kinds, search, order };
        return windowConnection<DestinationRecord>(list, args, async () => {
          const window = await ctx.loaders.destinations.window(project.projectId, query);
          for (const { kind, error } of window.refused)
            ctx.partialErrors.push(kindRefused(error, kind, info));
          return window;
        });
      },
    },
    DestinationConnection,
  ),
}));
