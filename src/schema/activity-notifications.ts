// What the caller has not read yet: ImportantChanges (recent changes by others to what they care
// about) on Project, and the bookmark mutation that marks them read.
import { validateProjectId } from '../ids.ts';
import type { ActivityEntryRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { clientMutationIdField } from './payloads.ts';
import { ActivityLogEntryRef, ImportantChangesRef, ProjectRef } from './refs.ts';

builder.objectType(ImportantChangesRef, {
  description: 'Recent changes by others to what the caller cares about, and when they last read them.',
  fields: (t) => ({
    entries: t.field({
      type: [ActivityLogEntryRef],
      description: 'The changes, newest first.',
      resolve: (c) => c.entries,
    }),
    lastRead: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The caller’s bookmark: entries after it are unread.',
      resolve: (c) => c.lastRead,
    }),
  }),
});

builder.objectFields(ProjectRef, (t) => ({
  importantChanges: t.field({
    type: ImportantChangesRef,
    nullable: true,
    description:
      'Recent changes by others (GET …/activity_log/important_changes); unreadOnly passes unread=true.',
    deprecationReason: `PostHog removed important changes (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED. Read activityLog instead.`,
    args: { unreadOnly: t.arg.boolean({ description: 'Only entries after the caller’s bookmark.' }) },
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
        description: 'The date-time that was bookmarked.',
        resolve: (p) => p.bookmark,
      }),
      entry: t.field({
        type: ActivityLogEntryRef,
        nullable: true,
        description: 'Set when the upstream answers with an entry (as the interface document says).',
        resolve: (p) => p.entry,
      }),
    }),
  });

const BookmarkInput = builder.inputType('BookmarkActivityNotificationInput', {
  description: 'Marks the activity notifications up to a date-time as read.',
  fields: (t) => ({
    clientMutationId: t.string({ description: 'Echoed in the payload.' }),
    projectId: t.string({ required: true, description: 'An integer project id, or "@current".' }),
    bookmark: t.field({ type: 'DateTime', description: 'Defaults to now.' }),
  }),
});

builder.mutationField('bookmarkActivityNotification', (t) =>
  t.field({
    type: BookmarkPayload,
    nullable: true,
    description: 'Bookmarks the activity notifications (POST …/activity_log/bookmark_activity_notification).',
    deprecationReason: `PostHog removed notification bookmarks for API keys (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    args: { input: t.arg({ type: BookmarkInput, required: true, description: 'The mutation’s input.' }) },
    resolve: async (_root, { input }, ctx) => {
      const projectId = validateProjectId(input.projectId);
      const bookmark = input.bookmark ?? new Date().toISOString();
      const bookmarked = await ctx.loaders.activity.bookmark(projectId, bookmark);
      return { clientMutationId: input.clientMutationId ?? null, ...bookmarked };
    },
  }),
);
