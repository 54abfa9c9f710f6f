// Subscription.activityAdded: one ActivityPoller per (hash of key, project, filters) in this
// process, shared by that key's subscribers with those arguments, stopped when the last leaves,
// never shared across keys (and, sharing a Redis, one polling across the processes). Subscribers
// of the very same operation share one stream before they get here (shared-live-work.ts), which
// also counts their slots. The streams and their pollers are a feed's (live/feed-streams.ts). A
// subscriber that resumes (`after`) reads what it missed on its own before it joins the poller
// (resumed-stream.ts).
import { hashKey, type KeyHash } from '../../core/caller-key.ts';
import { missingAuthorization } from '../../errors/codes.ts';
import { createLoaders } from '../../loaders/index.ts';
import type { SharedPolling } from '../../shared-state/shared-polling.ts';
import type { UpstreamClient } from '../../upstream/client.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import type { RequestSignal } from '../../upstream/request-signal.ts';
import { FeedStreams } from '../feed-streams.ts';
import type { PollPace } from '../poll-pace.ts';
import type { WakeBus } from '../wake-bus.ts';
import { ActivityPoller } from './activity-poller.ts';
import { ActivityCatchUp, type ReadNewestFirst, type ResumePoint } from './catch-up.ts';
import { catchUpExceeded } from './poll-failures.ts';
import type { ActivityArgs, PollerEvent } from './poller.ts';
import { runResumed } from './resumed-stream.ts';

export { fellBehind, MAX_EVENTS_BEHIND } from './bounded-push.ts';

export interface ActivitySubscriptionsOptions {
  client: UpstreamClient;
  wake: WakeBus;
  pollMs: number;
  pollDeadlineMs: number;
  /** One poller per key and arguments across the processes sharing a Redis. */
  polling?: SharedPolling | null;
  /** Slows each key's pollers as its budget tightens; the setting alone when not given. */
  pace?: PollPace;
}

export class ActivitySubscriptions {
  private readonly streams: FeedStreams<ActivityArgs, ActivityEntryRecord>;

  constructor(private readonly options: ActivitySubscriptionsOptions) {
    this.streams = new FeedStreams(options.wake, (key, authorization, args) =>
      this.newPoller(key, authorization, args),
    );
  }

  /** Pollers running now (for tests and metrics). */
  get pollerCount(): number {
    return this.streams.pollerCount;
  }

  /** With `after`, the stream first delivers what came after that entry (resumed-stream.ts). */
  subscribe(
    authorization: string | null,
    args: ActivityArgs,
    after: ResumePoint | null = null,
  ): AsyncIterableIterator<PollerEvent> {
    if (!authorization) throw missingAuthorization();
    const key = hashKey(authorization);
    if (!after) return this.streams.open(key, authorization, args);
    return this.streams.open(key, authorization, args, ({ join, push, stop, stopped, signal }) => {
      void runResumed({
        catchUp: new ActivityCatchUp(after, logName(args), () => catchUpExceeded(`after \`after\``)),
        reader: () => this.reader(authorization, args, signal),
        // Settles when the reader takes it, or at once when the stream is over.
        push: (event) => Promise.race([push(event), stopped]),
        join,
        stop: () => stop(),
        signal,
        pollMs: this.options.pollMs,
      }).catch((error: unknown) => stop(error));
    });
  }

  /** Reads the log newest first for one catch-up pass, with the subscriber's key. */
  private reader(authorization: string, args: ActivityArgs, signal: RequestSignal): ReadNewestFirst {
    const upstream = this.options.client.forCaller({
      authorization,
      signal,
      deadline: Date.now() + this.options.pollDeadlineMs,
    });
    const loaders = createLoaders(upstream);
    const filters = { scope: args.scope, itemId: args.itemId, userId: args.userId };
    return (cursor) => loaders.activity.page({ projectId: args.projectId, cursor, filters });
  }

  private newPoller(key: KeyHash, authorization: string, args: ActivityArgs): ActivityPoller {
    const { client, pollMs, pollDeadlineMs, pace, polling } = this.options;
    return new ActivityPoller({
      client,
      authorization,
      args,
      pollMs,
      pollDeadlineMs,
      pace: pace ? (ms) => pace.intervalMs(key, 'activity', ms) : undefined,
      share: polling ? (receive) => polling.link(key, args, receive) : undefined,
    });
  }

  /** Shutdown: every stream ends cleanly (complete, not error). */
  closeAll(): void {
    this.streams.closeAll();
  }
}

/** How an error names the log: `project 1`, and its filters. */
function logName(args: ActivityArgs): string {
  const filters = [
    args.scope === null ? null : `scope ${JSON.stringify(args.scope)}`,
    args.itemId === null ? null : `itemId ${JSON.stringify(args.itemId)}`,
    args.userId === null ? null : `userId ${args.userId}`,
  ].filter((f) => f !== null);
  return `project ${args.projectId}${filters.length ? ` (${filters.join(', ')})` : ''}`;
}
