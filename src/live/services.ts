// What subscriptions and live queries share in one gateway: the wake-up bus, the activity
// pollers, and the live-query settings. app.ts makes one; the context hands it to resolvers.
import type { SharedPolling } from '../shared-state/shared-polling.ts';
import type { SharedSlots } from '../shared-state/shared-slots.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { ActivitySubscriptions } from './activity/subscriptions.ts';
import { HealthSubscriptions } from './health/subscriptions.ts';
import { KeyCheck } from './key-check.ts';
import { PollPace } from './poll-pace.ts';
import { SubscriptionSlots } from './subscription-slots.ts';
import { WakeBus } from './wake-bus.ts';

export interface LiveSettings {
  activityPollMs: number;
  healthPollMs: number;
  liveQueryPollMs: number;
  maxSubscriptionsPerKey: number;
  maxSubscriptions: number;
  maxBacklogBytes: number;
  /** Keys not accepted yet checked at once, all keys together (MAX_UNVERIFIED_CHECKS). */
  maxUnverifiedChecks: number;
  requestDeadlineMs: number;
}

export class LiveServices {
  readonly wake = new WakeBus();
  readonly activity: ActivitySubscriptions;
  readonly health: HealthSubscriptions;
  readonly slots: SubscriptionSlots;
  /** Streams that end on shutdown besides the activity subscriptions (live queries). */
  private readonly closers = new Set<() => void>();
  /** What PostHog said of each key lately (upstream/keys/standing.ts): the upstream client's. */
  readonly keyStanding: UpstreamClient['keyStanding'];
  /** Live work starts only for a key PostHog has accepted (key-check.ts). */
  readonly keyCheck: KeyCheck;
  /** Pollers' intervals, slowed as a key's budget tightens (poll-pace.ts). */
  readonly pace: PollPace;

  constructor(
    client: UpstreamClient,
    readonly settings: LiveSettings,
    /** What is shared with other processes (REDIS_URL): the per-key slots, one poller per key. */
    shared: { slots: SharedSlots; polling: SharedPolling } | null = null,
  ) {
    this.keyStanding = client.keyStanding;
    this.keyCheck = new KeyCheck(client, settings.maxUnverifiedChecks, settings.requestDeadlineMs);
    this.pace = new PollPace(client);
    this.slots = new SubscriptionSlots(
      settings.maxSubscriptionsPerKey,
      settings.maxSubscriptions,
      shared?.slots ?? null,
    );
    this.activity = new ActivitySubscriptions({
      client,
      wake: this.wake,
      pollMs: settings.activityPollMs,
      pollDeadlineMs: settings.requestDeadlineMs,
      polling: shared?.polling ?? null,
      pace: this.pace,
    });
    this.health = new HealthSubscriptions({
      client,
      wake: this.wake,
      pollMs: settings.healthPollMs,
      pollDeadlineMs: settings.requestDeadlineMs,
      polling: shared?.polling ?? null,
      pace: this.pace,
    });
  }

  onClose(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Shutdown: every subscription and live query ends cleanly. */
  closeAll(): void {
    this.activity.closeAll();
    this.health.closeAll();
    for (const close of [...this.closers]) close();
  }
}
