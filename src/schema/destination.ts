// Destination: what a user calls a destination, whichever way PostHog keeps it (a hog function of a
// destination kind, or a legacy plugin config), and Project.destinations, one connection over both
// (loaders/destinations.ts decides what is in it).
import { mapMaybePromise } from '../maybe-promise.ts';
import type { ConfigRecord, HogFunctionRecord } from '../upstream/records.ts';
import { ActivityLogConnection } from './activity-log.ts';
import { builder } from './builder.ts';
import { arrayConnection } from './connections/array.ts';
import { ActivityLogEntryRef, DestinationRef, ProjectRef } from './refs.ts';

// The implementing types resolve every field themselves; these resolvers are never reached.
const own = (): never => {
  throw new Error('Destination fields are resolved by DestinationConfig and HogFunction.');
};

DestinationRef.implement({
  description: 'A destination: a hog function of a destination kind, or a legacy plugin config.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.id({ description: 'The global id.', resolve: own }),
    name: t.string({ nullable: true, description: 'Its name.', resolve: own }),
    enabled: t.boolean({ description: 'Whether it receives events.', resolve: own }),
    createdAt: t.field({ type: 'DateTime', nullable: true, description: 'When it was made.', resolve: own }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed.',
      resolve: own,
    }),
    activity: t.connection(
      {
        type: ActivityLogEntryRef,
        nullable: true,
        description: 'The activity log entries about it.',
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
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many destinations there are.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  { name: 'DestinationEdge', description: 'A destination and its cursor.' },
);

builder.objectFields(ProjectRef, (t) => ({
  destinations: t.connection(
    {
      type: DestinationRef,
      nullable: true,
      description:
        'Every destination of the project, one list: hog functions of the destination kinds (destination, site_destination, legacy_destination), then the legacy plugin configs that no enabled legacy_destination supersedes; an upstream without one of the two lists contributes none of it.',
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
