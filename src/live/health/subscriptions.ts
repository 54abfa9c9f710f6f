// Subscription.destinationHealthChanged: one health poller (a FeedPoller of HealthFeed) per (hash
// of key, project, kinds) in this process, shared and stopped as the activity feed's are
// (live/feed-streams.ts), and across the processes sharing a Redis one polling (the same
// shared-state/shared-polling.ts, under arguments of their own). Its reads are a poller's
// (priority `poller`), paced by the key's budget as the activity poller's are (poll-pace.ts).
import { hashKey, type KeyHash } from '../../core/caller-key.ts';
import { missingAuthorization } from '../../errors/codes.ts';
import type { SharedPolling } from '../../shared-state/shared-polling.ts';
import type { UpstreamClient } from '../../upstream/client.ts';
import { FeedPoller, type PollerEvent } from '../activity/poller.ts';
import { FeedStreams } from '../feed-streams.ts';
import type { PollPace } from '../poll-pace.ts';
import type { WakeBus } from '../wake-bus.ts';
import { type HealthArgs, type HealthChange, HealthFeed } from './feed.ts';

export interface HealthSubscriptionsOptions {
  client: UpstreamClient;
  wake: WakeBus;
  pollMs: number;
  pollDeadlineMs: number;
  polling?: SharedPolling | null;
  pace?: PollPace;
}

export class HealthSubscriptions {
  private readonly streams: FeedStreams<HealthArgs, HealthChange>;

  constructor(private readonly options: HealthSubscriptionsOptions) {
    this.streams = new FeedStreams(options.wake, (key, authorization, args) =>
      this.newPoller(key, authorization, args),
    );
  }

  /** Pollers running now (for tests and metrics). */
  get pollerCount(): number {
    return this.streams.pollerCount;
  }

  subscribe(
    authorization: string | null,
    args: HealthArgs,
  ): AsyncIterableIterator<PollerEvent<HealthChange>> {
    if (!authorization) throw missingAuthorization();
    return this.streams.open(hashKey(authorization), authorization, args);
  }

  private newPoller(key: KeyHash, authorization: string, args: HealthArgs): FeedPoller<HealthChange> {
    const { client, pollMs, pollDeadlineMs, pace, polling } = this.options;
    // Its own arguments in Redis: never the activity poller of the same key and project.
    const shared = { feed: 'destinationHealth', ...args };
    return new FeedPoller({
      client,
      authorization,
      feed: new HealthFeed(args),
      pollMs,
      pollDeadlineMs,
      pace: pace ? (ms) => pace.intervalMs(key, 'destination_health', ms) : undefined,
      share: polling ? (receive) => polling.link(key, shared, receive) : undefined,
    });
  }

  /** Shutdown: every stream ends cleanly (complete, not error). */
  closeAll(): void {
    this.streams.closeAll();
  }
}
