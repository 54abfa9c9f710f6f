// What the caller has not read yet: ImportantChanges (recent changes by others to what they care
// about) on Project, and the bookmark mutation that marks them read.
import { validateProjectId } from '../../core/ids.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { CLIENT_MUTATION_ID, clientMutationIdField } from '../payloads.ts';
import { ActivityLogEntryRef, ImportantChangesRef, ProjectRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

builder.objectType(ImportantChangesRef, {
  description: 'Recent changes by others to what the caller cares about, and when they last read them.',
  fields: (t) => ({
    entries: t.field({
      type: [ActivityLogEntryRef],
      description:
        'Recent changes by other users to items the caller made or follows, newest first; `unread` marks those after the bookmark.',
      // At most 10 entries.
      extensions: priced({ calls: 0, list: { assumed: 10 } }),
      resolve: (c) => c.entries,
    }),
    lastRead: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'The caller’s notification bookmark (ISO 8601): entries after it are unread; null when never bookmarked.',
      resolve: (c) => c.lastRead,
    }),
  }),
});

builder.objectFields(ProjectRef, (t) => ({
  importantChanges: t.field({
    type: ImportantChangesRef,
    nullable: true,
    description: needsScopes(
      'Recent changes by others to what the caller cares about (GET …/activity_log/important_changes/); unreadOnly passes unread=true. Refused to every personal API key by today’s PostHog.',
      'activity_log:read',
    ),
    deprecationReason: `PostHog removed important changes (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED. Read activityLog instead.`,
    args: { unreadOnly: t.arg.boolean({ description: 'Only entries after the caller’s bookmark.' }) },
    extensions: priced({ calls: 1 }),
    resolve: (project, args, ctx) =>
      ctx.loaders.activity.importantChanges({
        projectId: project.projectId,
        unreadOnly: args.unreadOnly ?? false,
      }),
  }),
}));

const BookmarkPayload = builder
  .objectRef<{ clientMutationId: string | null; bookmark: string; entry: ActivityEntryRecord | null }>(
    'BookmarkActivityNotificationPayload',
  )
  .implement({
    description: 'The result of bookmarking the activity notifications.',
    fields: (t) => ({
      clientMutationId: clientMutationIdField(t),
      bookmark: t.field({
        type: 'DateTime',
        description:
          'The bookmark now stored (ISO 8601): importantChanges counts entries after it as unread.',
        resolve: (p) => p.bookmark,
      }),
      entry: t.field({
        type: ActivityLogEntryRef,
        nullable: true,
        description:
          'The entry the upstream answered with, when it answers one (as the interface document says); null when it answers an empty body (as PostHog did).',
        resolve: (p) => p.entry,
      }),
    }),
  });

const BookmarkInput = builder.inputType('BookmarkActivityNotificationInput', {
  description: 'Marks the activity notifications up to a date-time as read.',
  fields: (t) => ({
    clientMutationId: t.string({ description: CLIENT_MUTATION_ID }),
    projectId: t.string({
      required: true,
      description: 'The project whose notifications to mark read: an integer id, or "@current".',
    }),
    bookmark: t.field({
      type: 'DateTime',
      description: 'Entries up to this date-time (ISO 8601) count as read; defaults to now.',
    }),
  }),
});

builder.mutationField('bookmarkActivityNotification', (t) =>
  t.field({
    type: BookmarkPayload,
    nullable: true,
    description: needsScopes(
      'Marks the project’s activity notifications read up to a date-time (POST …/activity_log/bookmark_activity_notification/).',
      'activity_log:read',
    ),
    deprecationReason: `PostHog removed notification bookmarks for API keys (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    args: {
      input: t.arg({
        type: BookmarkInput,
        required: true,
        description: 'The project and the date-time up to which its notifications count as read.',
      }),
    },
    extensions: priced({ calls: 1 }),
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const bookmark = input.bookmark ?? new Date().toISOString();
      const bookmarked = await ctx.loaders.activity.bookmark(projectId, bookmark);
      return { clientMutationId: input.clientMutationId ?? null, ...bookmarked };
    },
  }),
);
