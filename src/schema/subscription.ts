// Subscription.activityAdded: new entries of a project's activity log, pushed as the gateway
// finds them by polling the REST log with the subscriber's own key (src/live/).
import type { GraphQLError } from 'graphql';
import type { GatewayContext } from '../context.ts';
import { codedError } from '../errors/codes.ts';
import { validateProjectId } from '../ids.ts';
import type { PollerEvent } from '../live/activity-poller.ts';
import { builder } from './builder.ts';
import { ActivityLogEntryRef } from './refs.ts';
import { needsScopes } from './scopes.ts';

/**
 * Each event runs as a fresh round of work (new loaders, call budget and deadline), so an
 * entry's destinationConfig is read anew and an hours-long stream never meets a deadline.
 * A hand-made iterator, not an async generator: a generator's return() waits for the next
 * event, and an unsubscribing client must stop the poller at once.
 */
function eachEventAsARound(
  events: AsyncIterableIterator<PollerEvent>,
  ctx: GatewayContext,
): AsyncIterableIterator<PollerEvent> {
  return {
    next: () =>
      events.next().then((result) => {
        if (result.done) ctx.end();
        else ctx.renew();
        return result;
      }),
    return: (value?: unknown) => {
      ctx.end();
      return events.return ? events.return(value) : Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

builder.subscriptionType({
  description:
    'Live updates over Server-Sent Events or WebSocket (graphql-ws) at /graphql. Today one: `activityAdded`, a project’s new activity log entries as the gateway finds them. (A query kept current is `@live`, not a subscription.)',
});

builder.subscriptionField('activityAdded', (t) =>
  t.field({
    type: ActivityLogEntryRef,
    description: needsScopes(
      'Each new entry of the project’s activity log, oldest first, each once, from the moment of subscribing. The gateway polls the log (GET /api/projects/:id/activity_log/) with your key every ACTIVITY_POLL_MS (5 s by default), sharing one poller among your subscriptions with the same arguments, and at once after a write you make through the gateway to that project. Filters are those of Project.activityLog. A 401/403 ends the stream with UNAUTHENTICATED/FORBIDDEN; other upstream failures arrive as an event with an error, and the stream goes on. An entry’s destinationConfig and hogFunction need their own read scopes.',
      'activity_log:read',
    ),
    args: {
      projectId: t.arg.string({ required: true, description: 'The project’s integer id, or "@current".' }),
      scope: t.arg.string({ description: 'Only entries of this scope, e.g. PluginConfig.' }),
      itemId: t.arg.string({ description: 'Only entries about this item id (exact).' }),
      userId: t.arg.int({ description: 'Only entries by this user (integer id).' }),
    },
    subscribe: async (_root, args, ctx) => {
      if (!ctx.live) throw codedError('BAD_USER_INPUT', 'Subscriptions are not served here.');
      const events = await ctx.live.activity.subscribe(ctx.authorization, {
        projectId: validateProjectId(args.projectId),
        scope: args.scope ?? null,
        itemId: args.itemId ?? null,
        userId: args.userId ?? null,
      });
      return eachEventAsARound(events, ctx);
    },
    resolve: (event: PollerEvent) => {
      if (event.kind === 'entry') return event.entry;
      throw event.error as GraphQLError;
    },
  }),
);
