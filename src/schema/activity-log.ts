// ActivityLogEntry, its connection over the upstream's cursor list, and the Project field that
// reaches it. Who made an entry: activity-user.ts; important changes and the bookmark:
// activity-notifications.ts.
import type { GatewayContext } from '../context.ts';
import { isNotFound } from '../errors/codes.ts';
import { configIdFromText } from '../ids.ts';
import type { ActivityFilters } from '../loaders/activity.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import type { ActivityEntryRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import type { ConnectionArgs } from './connections/connection.ts';
import { cursorConnection } from './connections/cursor.ts';
import {
  ActivityLogEntryRef,
  ActivityUserRef,
  DestinationConfigRef,
  isRecordOf,
  ProjectRef,
} from './refs.ts';
import { listAnswersSuffice } from './selection.ts';

/** The scope PostHog writes on entries about a destination config. */
export const CONFIG_SCOPE = 'PluginConfig';

builder.objectType(ActivityLogEntryRef, {
  description: 'One entry of a project’s activity log: who did what to which item.',
  isTypeOf: isRecordOf('ActivityLogEntry'),
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The entry’s upstream UUID.' }),
    user: t.expose('user', {
      type: ActivityUserRef,
      nullable: true,
      description: 'Who made the change; null for system changes.',
    }),
    unread: t.exposeBoolean('unread', {
      description:
        'Whether the entry is newer than the caller’s bookmark (computed only by important changes).',
    }),
    organizationId: t.exposeString('organizationId', {
      nullable: true,
      description: 'The organization’s UUID.',
    }),
    wasImpersonated: t.exposeBoolean('wasImpersonated', {
      nullable: true,
      description: 'Whether staff made the change while impersonating the user.',
    }),
    isSystem: t.exposeBoolean('isSystem', {
      nullable: true,
      description: 'Whether the system made the change.',
    }),
    activity: t.exposeString('activity', {
      description: 'The action, e.g. created, updated, enabled, job_triggered.',
    }),
    itemId: t.exposeString('itemId', {
      nullable: true,
      description: 'The identifier of the affected item.',
    }),
    scope: t.exposeString('scope', {
      description: 'The kind of the affected item, e.g. PluginConfig, FeatureFlag.',
    }),
    detail: t.expose('detail', {
      type: 'JSON',
      nullable: true,
      description: 'What changed, as the upstream describes it (name, changes, trigger…).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it happened.' }),
    destinationConfig: t.field({
      type: DestinationConfigRef,
      nullable: true,
      description:
        'The config this entry is about, when scope is PluginConfig and the config can still be read.',
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
  },
  { name: 'ActivityLogEdge', description: 'An activity log entry and its cursor.' },
);

/** A project's activity log (or the part of it that matches `filters`) as a connection. */
export function activityConnection(
  ctx: GatewayContext,
  projectId: string,
  filters: ActivityFilters,
  args: ConnectionArgs,
) {
  // The cursor names the numeric project and the filters: it is refused by any other list.
  const list = () =>
    mapMaybePromise(ctx.loaders.currentProject.cursorId(projectId), (id) =>
      JSON.stringify(['activity', id, filters.scope ?? null, filters.itemId ?? null, filters.userId ?? null]),
    );
  return cursorConnection<ActivityEntryRecord>(
    list,
    args,
    (entry) => entry.id,
    (cursor) => ctx.loaders.activity.page({ projectId, cursor, filters }),
  );
}

builder.objectFields(ProjectRef, (t) => ({
  activityLog: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description:
        'The project’s activity log, newest first. Filters go to the upstream as scope, item_id and user. Pages forward (first/after) and backward (last/before); `last` without `before` reads to the end of the log.',
      args: {
        scope: t.arg.string({ description: 'Only entries of this scope, e.g. PluginConfig.' }),
        itemId: t.arg.string({ description: 'Only entries about this item id (exact).' }),
        userId: t.arg.int({ description: 'Only entries by this user (integer id).' }),
      },
      resolve: (project, args, ctx) =>
        activityConnection(
          ctx,
          project.projectId,
          { scope: args.scope, itemId: args.itemId, userId: args.userId },
          args,
        ),
    },
    ActivityLogConnection,
  ),
}));
