// Subscription.activityAdded: new entries of a project's activity log, pushed as the gateway
// finds them by polling the REST log with the subscriber's own key (src/live/).
import type { GraphQLError } from 'graphql';
import type { GatewayContext } from '../context.ts';
import { validateProjectId } from '../core/ids.ts';
import { badUserInput, codedError } from '../errors/codes.ts';
import type { ResumePoint } from '../live/activity/catch-up.ts';
import type { ActivityArgs, PollerEvent } from '../live/activity/poller.ts';
import { builder } from './builder.ts';
import { decodeCursor } from './connections/cursors.ts';
import { ActivityLogEntryRef } from './refs.ts';
import { needsScopes } from './scopes.ts';

/**
 * Each event runs as a fresh round of work (new loaders, call budget and deadline), so an
 * entry's destinationConfig is read anew and an hours-long stream never meets a deadline.
 * A hand-made iterator, not an async generator: a generator's return() waits for the next
 * event, and an unsubscribing client must stop the poller at once.
 */
export function eachEventAsARound<Event>(
  events: AsyncIterableIterator<Event>,
  ctx: GatewayContext,
): AsyncIterableIterator<Event> {
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

const ENTRY_ID = /^[A-Za-z0-9-]{1,200}$/;
const UPSTREAM_CURSOR = /^[A-Za-z0-9+/=]{1,2000}$/;

/**
 * `after` as an entry id, or as a cursor of this very activityLog (same project and filters: a
 * cursor of another list is BAD_USER_INPUT), which also names the page that held the entry.
 */
async function resumePoint(ctx: GatewayContext, args: ActivityArgs, after: string): Promise<ResumePoint> {
  const text = /^[A-Za-z0-9_-]+$/.test(after) ? Buffer.from(after, 'base64url').toString('utf8') : '';
  if (!text.startsWith('["')) {
    if (!ENTRY_ID.test(after))
      throw badUserInput('`after` is neither an activity log entry’s id nor a cursor of activityLog.', {
        field: 'after',
      });
    return { entryId: after };
  }
  const list = JSON.stringify([
    'activity',
    await ctx.loaders.currentProject.cursorId(args.projectId),
    args.scope,
    args.itemId,
    args.userId,
  ]);
  const [upstreamCursor, , entryId] = decodeCursor(after, list, 'after', 3);
  const fine =
    (upstreamCursor === null ||
      (typeof upstreamCursor === 'string' && UPSTREAM_CURSOR.test(upstreamCursor))) &&
    typeof entryId === 'string' &&
    ENTRY_ID.test(entryId);
  if (!fine)
    throw badUserInput('`after` is not a cursor of this activityLog; pass one it returned.', {
      field: 'after',
    });
  return { entryId, upstreamCursor };
}

builder.subscriptionType({
  description:
    'Live updates over Server-Sent Events or WebSocket (graphql-ws) at /graphql: `activityAdded`, a project’s new activity log entries, and `destinationHealthChanged`, its destinations whose health changed, as the gateway finds them. (A query kept current is `@live`, not a subscription.)',
});

builder.subscriptionField('activityAdded', (t) =>
  t.field({
    type: ActivityLogEntryRef,
    description: needsScopes(
      'Each new entry of the project’s activity log, oldest first, each once, from the moment of subscribing (or, with `after`, from the entry after the last one you have). The gateway polls the log (GET /api/projects/:id/activity_log/) with your key every ACTIVITY_POLL_MS (5 s by default), sharing one poller among your subscriptions with the same arguments, and at once after a write you make through the gateway to that project. Filters are those of Project.activityLog. An answer that says nothing can come (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND of the project, PAYMENT_REQUIRED for a plan without audit logs, UPSTREAM_UNSUPPORTED) is sent once and ends the stream; other upstream failures (timeouts, 5xx, RATE_LIMITED) arrive as an event with an error, and the stream goes on. An entry’s destinationConfig and hogFunction need their own read scopes.',
      'activity_log:read',
    ),
    args: {
      projectId: t.arg.string({ required: true, description: 'The project’s integer id, or "@current".' }),
      scope: t.arg.string({ description: 'Only entries of this scope, e.g. PluginConfig.' }),
      itemId: t.arg.string({ description: 'Only entries about this item id (exact).' }),
      userId: t.arg.int({ description: 'Only entries by this user (integer id).' }),
      after: t.arg.string({
        description:
          'Resume a feed: the `id` of the last entry you have (or a cursor of activityLog with the same project and filters). Every entry after it is delivered first, oldest first, then the new ones as they come, none twice and none missed between the two. More than 10 upstream pages (1,000 entries) after it: an event with QUERY_TOO_COMPLEX (measure activityCatchUpPages) comes first, then the newest 1,000. An `after` the log no longer holds (older than the upstream keeps, of another project or other filters) ends the subscription with BAD_USER_INPUT before any polling. Past the 1,000, the entry of a cursor of a later page is looked for on that page; a bare id (or a first page’s cursor) is taken as older than the 1,000 (only reading the whole log could tell it from an id the log never held).',
      }),
    },
    subscribe: async (_root, args, ctx) => {
      if (!ctx.live) throw codedError('BAD_USER_INPUT', 'Subscriptions are not served here.');
      const activityArgs: ActivityArgs = {
        projectId: validateProjectId(args.projectId),
        scope: args.scope ?? null,
        itemId: args.itemId ?? null,
        userId: args.userId ?? null,
      };
      const after = args.after == null ? null : await resumePoint(ctx, activityArgs, args.after);
      const events = await ctx.live.activity.subscribe(ctx.authorization, activityArgs, after);
      return eachEventAsARound(events, ctx);
    },
    resolve: (event: PollerEvent) => {
      if (event.kind === 'entry') return event.entry;
      throw event.error as GraphQLError;
    },
  }),
);
