// Destination: what a user calls a destination, whichever way PostHog keeps it (a hog function of a
// destination kind, or a legacy plugin config), and Project.destinations, one connection over both
// (loaders/destinations.ts decides what is in it).
import { mapMaybePromise } from '../maybe-promise.ts';
import type { ConfigRecord, HogFunctionRecord } from '../upstream/records.ts';
import { ActivityLogConnection } from './activity-log.ts';
import { builder } from './builder.ts';
import { arrayConnection } from './connections/array.ts';
import { ActivityLogEntryRef, DestinationRef, ProjectRef } from './refs.ts';
import { needsScopes } from './scopes.ts';

// The implementing types resolve every field themselves; these resolvers are never reached.
const own = (): never => {
  throw new Error('Destination fields are resolved by DestinationConfig and HogFunction.');
};

DestinationRef.implement({
  description:
    'What PostHog’s UI lists as a destination, whichever way PostHog keeps it: a HogFunction of a destination kind, or a legacy plugin DestinationConfig. Select `__typename` and a fragment on either type for what only that kind has.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.id({
      description:
        'The destination’s global id: a HogFunction’s or a DestinationConfig’s, as `__typename` says; `node` and the mutations of that kind take it.',
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
          'The activity log entries about the destination, newest first: scope HogFunction or PluginConfig, by its uuid or integer id.',
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
    description: 'A project’s destinations of both kinds, hog functions first, as a Relay connection.',
    edgesField: {
      description:
        'This page’s destinations (hog functions first, then legacy configs), each with its cursor.',
    },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many destinations the merged list holds in all (after the `enabled` filter).',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'DestinationEdge',
    description: 'A destination and its cursor.',
    nodeField: { description: 'A destination: a HogFunction or a DestinationConfig (see `__typename`).' },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  destinations: t.connection(
    {
      type: DestinationRef,
      nullable: true,
      description: needsScopes(
        'Every destination of the project, one list: hog functions of the destination kinds (destination, site_destination, legacy_destination; GET …/hog_functions/), then the legacy plugin configs (GET …/pipeline_destination_configs/) that no enabled legacy_destination supersedes (one config retrieve per distinct plugin says which). Both lists are read whole (at most 10,000 items each) and paged here both ways; an upstream without one of the two lists contributes none of it.',
        'hog_function:read',
        'plugin:read',
      ),
      args: {
        enabled: t.arg.boolean({ description: 'Only enabled (true) or disabled (false) destinations.' }),
      },
      resolve: (project, args, ctx) => {
        const enabled = args.enabled ?? null;
        const list = () =>
          mapMaybePromise(ctx.loaders.currentProject.cursorId(project.projectId), (id) =>
            JSON.stringify(['destinations', id, enabled]),
          );
        return arrayConnection<ConfigRecord | HogFunctionRecord>(list, args, () =>
          ctx.loaders.destinations.all(project.projectId, enabled),
        );
      },
    },
    DestinationConnection,
  ),
}));
