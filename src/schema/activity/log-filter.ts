// ActivityLogFilter: the activity log as PostHog's advanced_activity_logs filters it (scopes,
// activities, users, item ids, dates, search), taken by Project.activityLog. Which route a filter
// goes to and what the gateway checks itself: loaders/activity/filter.ts.
import { builder } from '../builder.ts';

export const ActivityLogFilterInput = builder.inputType('ActivityLogFilter', {
  description:
    'Which entries of the activity log to list: each part narrows it (ANDed), each list matches any of its values. Sent to PostHog’s advanced_activity_logs where the upstream has it; otherwise the gateway filters the pages it reads (at most 10 upstream pages a field).',
  fields: (t) => ({
    scopes: t.stringList({
      description: 'Any of these scopes (HogFunction, PluginConfig, BatchExport, ...).',
    }),
    activities: t.stringList({
      description: 'Any of these activities (created, updated, deleted, published, ...).',
    }),
    userEmails: t.stringList({
      description:
        'Any of these users, by email (any case). PostHog filters users by UUID only: the gateway checks e-mails itself.',
    }),
    itemIds: t.stringList({ description: 'Any of these item ids (exact).' }),
    since: t.field({ type: 'DateTime', description: 'Entries at or after this time.' }),
    until: t.field({ type: 'DateTime', description: 'Entries before this time.' }),
    search: t.string({
      description: 'Text PostHog searches the entries’ detail for (any case), e.g. a destination’s name.',
    }),
  }),
});
