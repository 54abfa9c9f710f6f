// The activity log's poller: the feed poller (poller.ts) reading the log's news page by page
// (news.ts), each entry it finds a change PostHog logged.
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { readMissed } from './missed.ts';
import { ActivityNews, type NewsPosition } from './news.ts';
import { type ActivityArgs, FeedPoller, type FeedPollerOptions } from './poller.ts';

export interface PollerOptions extends Omit<FeedPollerOptions<ActivityEntryRecord>, 'feed'> {
  args: ActivityArgs;
}

/** The activity log's poller: its news read page by page (news.ts). */
export class ActivityPoller extends FeedPoller<ActivityEntryRecord> {
  constructor(options: PollerOptions) {
    const { args, client } = options;
    const news = new ActivityNews();
    const filters = { scope: args.scope, itemId: args.itemId, userId: args.userId };
    super({
      ...options,
      feed: {
        start: () => news.start(),
        position: () => news.position(),
        resume: (position) => news.resume(position as NewsPosition),
        read: (loaders) =>
          news.read((cursor, follow) =>
            loaders.activity.page({ projectId: args.projectId, cursor, filters, follow }),
          ),
        missed: (from, to, then, loaders) =>
          readMissed(from as NewsPosition, to.seen, then, (cursor, follow) =>
            loaders.activity.page({ projectId: args.projectId, cursor, filters, follow }),
          ),
      },
      // A change PostHog logged: what is kept of the resource answers no more (upstream/kept/answers.ts).
      onItem: (entry) => client.changedUpstream(entry.projectId, entry.scope),
    });
  }
}
