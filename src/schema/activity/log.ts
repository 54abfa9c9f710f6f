// ActivityLogEntry, its connection over the upstream's cursor list, and the Project field that
// reaches it. Who made an entry: activity-user.ts; important changes and the bookmark:
// activity-notifications.ts.

import type { GatewayContext } from '../../context.ts';
import { ACTIVITY_SCOPES } from '../../core/activity-scopes.ts';
import { configIdFromText } from '../../core/ids.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { isNotFound } from '../../errors/codes.ts';
import { type ListFilters, normalizedFilter } from '../../loaders/activity/filter.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { type ConnectionArgs, checkPageSize } from '../connections/connection.ts';
import { cursorConnection, headConnection } from '../connections/cursor.ts';
import { priced } from '../cost/price.ts';
import { ACTIVITY_LOG, CONFIG_CROSS_LINK } from '../cost/rules.ts';
import {
  ActivityLogEntryRef,
  ActivityUserRef,
  DestinationConfigRef,
  isRecordOf,
  ProjectRef,
} from '../refs.ts';
import { needsScopes } from '../scopes.ts';
import { listAnswersSuffice } from '../selection.ts';
import { ActivityLogFilterInput } from './log-filter.ts';

/** The scope PostHog writes on entries about a destination config. */
export const CONFIG_SCOPE = ACTIVITY_SCOPES.pipeline_destination_configs;

builder.objectType(ActivityLogEntryRef, {
  description: 'One entry of a project’s activity log: who did what to which item.',
  isTypeOf: isRecordOf('ActivityLogEntry'),
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The entry’s UUID in PostHog’s activity log (not a global id: `node` does not take it).',
    }),
    user: t.expose('user', {
      type: ActivityUserRef,
      nullable: true,
      description: 'Who made the change, as PostHog names them; null for a change the system made.',
    }),
    unread: t.exposeBoolean('unread', {
      description:
        'Whether the entry is newer than the caller’s notification bookmark; computed only in importantChanges, false everywhere else.',
    }),
    organizationId: t.exposeString('organizationId', {
      nullable: true,
      description:
        'The UUID of the organization the project belongs to; null when the upstream leaves it out.',
    }),
    wasImpersonated: t.exposeBoolean('wasImpersonated', {
      nullable: true,
      description:
        'Whether PostHog staff made the change while logged in as `user`; null when the upstream does not say.',
    }),
    isSystem: t.exposeBoolean('isSystem', {
      nullable: true,
      description:
        'Whether PostHog itself made the change (then `user` is null); null when the upstream does not say.',
    }),
    activity: t.exposeString('activity', {
      description: 'What was done, in PostHog’s words: created, updated, deleted, enabled, job_triggered, …',
    }),
    itemId: t.exposeString('itemId', {
      nullable: true,
      description:
        'The changed item’s id as PostHog writes it: a config’s integer id as text for PluginConfig, a hog function’s UUID for HogFunction; null when the entry names none.',
    }),
    scope: t.exposeString('scope', {
      description:
        'The kind of item changed, e.g. PluginConfig, HogFunction, FeatureFlag; what activityLog’s `scope` argument matches.',
    }),
    detail: t.expose('detail', {
      type: 'JSON',
      nullable: true,
      description:
        'What changed, as PostHog describes it: {name, changes: [{field, before, after}], trigger, …}; secret inputs read as masked; null when there is no detail.',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the change was made (ISO 8601); the log is ordered by it, newest first.',
    }),
    destinationConfig: t.field({
      type: DestinationConfigRef,
      nullable: true,
      description: needsScopes(
        'The destination config this entry is about, when `scope` is PluginConfig: read from PostHog (batched with the page’s other entries); null for another scope or when the config is gone.',
        'plugin:read',
      ),
      extensions: priced(CONFIG_CROSS_LINK),
      // Batched per project with the other entries of the page: several configs of one project
      // are read from list pages when that is fewer calls than a retrieve each.
      resolve: async (entry, _args, ctx, info) => {
        const id = entry.scope === CONFIG_SCOPE ? configIdFromText(entry.itemId) : null;
        if (id === null) return null;
        try {
          const listFieldsSuffice = listAnswersSuffice(info);
          return await ctx.loaders.configs.load({ projectId: entry.projectId, id }, { listFieldsSuffice });
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
      },
    }),
  }),
});

export const ActivityLogConnection = builder.connectionObject(
  {
    type: ActivityLogEntryRef,
    name: 'ActivityLogConnection',
    description:
      'Activity log entries, newest first, as a Relay connection (first/after forward, last/before backward).',
    edgesField: { description: 'This page’s activity log entries, newest first, each with its cursor.' },
  },
  {
    name: 'ActivityLogEdge',
    description: 'An activity log entry and its cursor.',
    nodeField: { description: 'One activity log entry: who did what to which item, and when.' },
  },
);

/** A project's activity log (or the part of it that matches `filters`) as a connection. */
export async function activityConnection(
  ctx: GatewayContext,
  projectId: string,
  filters: ListFilters,
  args: ConnectionArgs,
) {
  const filter = normalizedFilter(filters.filter);
  // The cursor names the numeric project and the filters: it is refused by any other list.
  const list = () =>
    mapMaybePromise(ctx.loaders.currentProject.cursorId(projectId), (id) =>
      JSON.stringify([
        'activity',
        id,
        filters.scope ?? null,
        filters.itemId ?? null,
        filters.userId ?? null,
        ...(filter ? [filter] : []),
      ]),
    );
  if (filter) {
    const listFilters = { scope: filters.scope, itemId: filters.itemId, userId: filters.userId, filter };
    return cursorConnection<ActivityEntryRecord>(
      list,
      args,
      (entry) => entry.id,
      (cursor) => ctx.loaders.filteredActivity.page({ projectId, cursor, filters: listFilters }),
    );
  }
  // An item's newest entries, asked for beside other items' (a page of destinations each with
  // its activity), come from one read for them all (loaders/activity/heads.ts).
  if (isItemHead(filters, args)) {
    checkPageSize(args);
    const head = await ctx.loaders.activityHeads.load({
      projectId,
      scope: filters.scope!,
      itemId: filters.itemId!,
      first: args.first!,
    });
    if (head) return headConnection(list, head.entries, (entry) => entry.id, head.more);
  }
  return cursorConnection<ActivityEntryRecord>(
    list,
    args,
    (entry) => entry.id,
    (cursor) => ctx.loaders.activity.page({ projectId, cursor, filters }),
  );
}

/** `first` from the top of one item's entries: what several items' reads can share. */
const isItemHead = (filters: ListFilters, args: ConnectionArgs) =>
  filters.scope != null &&
  filters.itemId != null &&
  filters.userId == null &&
  args.first != null &&
  args.first > 0 &&
  args.after == null &&
  args.before == null &&
  args.last == null;

builder.objectFields(ProjectRef, (t) => ({
  activityLog: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description: needsScopes(
        'The project’s activity log, newest first (GET …/activity_log/, 100 entries an upstream page, at most 10 upstream pages a field). Filters go to the upstream as scope, item_id and user. Pages forward (first/after) and backward (last/before); `last` without `before` reads to the end of the log.',
        'activity_log:read',
      ),
      args: {
        scope: t.arg.string({ description: 'Only entries of this scope, e.g. PluginConfig.' }),
        itemId: t.arg.string({ description: 'Only entries about this item id (exact).' }),
        userId: t.arg.int({ description: 'Only entries by this user (integer id).' }),
        filter: t.arg({
          type: ActivityLogFilterInput,
          description:
            'Entries as PostHog’s advanced_activity_logs filters them (scopes, activities, users, item ids, dates, search), ANDed with the arguments above.',
        }),
      },
      extensions: priced(ACTIVITY_LOG),
      resolve: (project, args, ctx) =>
        activityConnection(
          ctx,
          project.projectId,
          { scope: args.scope, itemId: args.itemId, userId: args.userId, filter: args.filter },
          args,
        ),
    },
    ActivityLogConnection,
  ),
}));
