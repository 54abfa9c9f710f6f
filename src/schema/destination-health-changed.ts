// Subscription.destinationHealthChanged: a project's destinations whose health changed, pushed as
// the gateway finds them by polling the destinations with the subscriber's own key
// (src/live/health/; what decides a health: loaders/destination-health.ts).
import type { GraphQLError } from 'graphql';
import { validateProjectId } from '../core/ids.ts';
import { mapMaybePromise } from '../core/maybe-promise.ts';
import { codedError } from '../errors/codes.ts';
import type { PollerEvent } from '../live/activity/poller.ts';
import type { HealthChange } from '../live/health/feed.ts';
import { DESTINATION_KINDS } from '../loaders/destinations.ts';
import { builder } from './builder.ts';
import { priced } from './cost/price.ts';
import { GLOBAL_ID } from './cost/rules.ts';
import { DestinationKindRef } from './destination.ts';
import { DestinationHealthRef } from './destination-health.ts';
import { batchExportGlobalId, configGlobalId, hogFunctionGlobalId } from './global-id.ts';
import { DestinationRef } from './refs.ts';
import { needsScopes } from './scopes.ts';
import { eachEventAsARound } from './subscription.ts';

const globalIdOf = (d: HealthChange['destination'], projectId: string) =>
  d.__typename === 'DestinationConfig'
    ? configGlobalId(projectId, d.databaseId)
    : d.__typename === 'HogFunction'
      ? hogFunctionGlobalId(projectId, d.uuid)
      : batchExportGlobalId(projectId, d.uuid);

const HealthChangeRef = builder.objectRef<HealthChange>('DestinationHealthChange').implement({
  description:
    'A destination whose health changed between two polls: which, and its health before and after.',
  fields: (t) => ({
    id: t.id({
      description: 'The destination’s global id (as `Destination.id`), for `node` and its kind’s mutations.',
      extensions: priced(GLOBAL_ID),
      resolve: (c, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(c.destination.projectId), (id) =>
          globalIdOf(c.destination, id),
        ),
    }),
    kind: t.field({
      type: DestinationKindRef,
      description: 'Which kind of destination it is.',
      resolve: (c) => c.kind,
    }),
    destination: t.field({
      type: DestinationRef,
      description: 'The destination as the poll that saw the change read it.',
      resolve: (c) => c.destination,
    }),
    old: t.field({
      type: DestinationHealthRef,
      description: 'Its health at the poll before.',
      resolve: (c) => c.old,
    }),
    new: t.field({
      type: DestinationHealthRef,
      description: 'Its health now: its `state` differs from the old one’s.',
      resolve: (c) => c.new,
    }),
  }),
});

builder.subscriptionField('destinationHealthChanged', (t) =>
  t.field({
    type: HealthChangeRef,
    description: needsScopes(
      'Each destination of the project whose health `state` changes, as the gateway finds it: it reads the destinations (as Project.destinations does, every page of the asked kinds) with your key every DESTINATION_HEALTH_POLL_MS (30 s by default), slower as your key’s budget tightens, sharing one poller among your subscriptions with the same arguments (across processes sharing a Redis), and at once after a write you make through the gateway to that project. The first read is the baseline; a destination that appears or goes is not a change. A kind your key may not read is left out; every kind refused, or an answer that says nothing can come (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND of the project, PAYMENT_REQUIRED, UPSTREAM_UNSUPPORTED), is sent once and ends the stream; other upstream failures (timeouts, 5xx, RATE_LIMITED) arrive as an event with an error, and the stream goes on.',
      'hog_function:read',
      'plugin:read',
      'batch_export:read',
    ),
    args: {
      projectId: t.arg.id({ required: true, description: 'The project’s integer id, or "@current".' }),
      kinds: t.arg({
        type: [DestinationKindRef],
        description: 'Only destinations of these kinds (every kind when left out).',
      }),
    },
    subscribe: (_root, args, ctx) => {
      if (!ctx.live) throw codedError('BAD_USER_INPUT', 'Subscriptions are not served here.');
      const projectId = validateProjectId(String(args.projectId));
      const kinds = args.kinds?.length ? [...new Set(args.kinds)].sort() : [...DESTINATION_KINDS];
      return eachEventAsARound(ctx.live.health.subscribe(ctx.authorization, { projectId, kinds }), ctx);
    },
    resolve: (event: PollerEvent<HealthChange>) => {
      if (event.kind === 'entry') return event.entry;
      throw event.error as GraphQLError;
    },
  }),
);
