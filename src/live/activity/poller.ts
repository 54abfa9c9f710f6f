// One poller of a feed (a project's activity log: activity-poller.ts; its destinations' health:
// live/health/), for every subscriber of one key with the same arguments. It polls with that key
// every ACTIVITY_POLL_MS (DESTINATION_HEALTH_POLL_MS), or at once when a write of that key to
// the project wakes it, and hands each subscriber what is news, each once: for the log, every
// entry newer than what it has seen, in the upstream's order reversed (oldest first, never
// re-sorted by date), following the log's pages back to the last entry seen, or oldest first
// after a kept cursor where the upstream follows (news.ts).
// - The first poll is the baseline: entries already in the log are not news, except those made
//   after the first subscriber came (a write racing the subscription is still delivered).
// - 429: the client waits out a Retry-After that fits its deadline; a longer one is waited here.
// - An answer that says nothing can come (ENDING_CODES, poll-failures.ts): every subscriber's
//   stream ends with the coded error, and the poller stops.
// - Any other failure is reported to the subscribers as an event with that error (the stream
//   goes on), and polling backs off (retryDelayMs).
// - Processes sharing a Redis share the poller (shared-state/shared-polling.ts): only the one
//   holding its lease reads the upstream, and what it finds reaches every process's subscribers as
//   one numbered message with the position it leaves the poller at. While Redis is lost nobody
//   polls; the streams stay open and go on from the kept position when it is back.
// What is news, and how it is read, is the feed's (PollerFeed); the loop is FeedPoller's.
import type { GraphQLError } from 'graphql';
import { createLoaders } from '../../loaders/index.ts';
import type { UpstreamClient } from '../../upstream/client.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { RequestSignal } from '../../upstream/request-signal.ts';
import { catchUpExceeded, ENDING_CODES, retryDelayMs } from './poll-failures.ts';
import { PollSharing, type Share } from './poll-sharing.ts';
import type { PollerFeed } from './poller-feed.ts';

export type { PollerFeed } from './poller-feed.ts';

export interface ActivityArgs {
  projectId: string;
  scope: string | null;
  itemId: string | null;
  userId: number | null;
}

/** What a subscriber is handed: an item (an entry), an error to report, or the error that ends it. */
export type PollerEvent<Item = ActivityEntryRecord> =
  | { kind: 'entry'; entry: Item }
  | { kind: 'error'; error: GraphQLError }
  | { kind: 'end'; error: GraphQLError };

export interface FeedPollerOptions<Item> {
  client: UpstreamClient;
  authorization: string;
  feed: PollerFeed<Item>;
  /** Told of each item found, before the subscribers (what a logged change drops). */
  onItem?: (item: Item) => void;
  pollMs: number;
  /** The deadline of one poll, retries and a fitting Retry-After included. */
  pollDeadlineMs: number;
  /** Shared with other processes: links this poller to its lease, position and channel. */
  share?: Share;
  /** The wait after a poll that found no more, from the setting (live/poll-pace.ts). */
  pace?: (settingMs: number) => Promise<number>;
}

/** A subscriber: told of each event; what it returns settles when the event has been taken. */
export type Subscriber<Item = ActivityEntryRecord> = (event: PollerEvent<Item>) => Promise<unknown>;

/** What one read of the upstream gives the subscribers, and when to read again. */
interface Reading<Item> {
  events: PollerEvent<Item>[];
  nextMs: number;
  /** A full page was read: read the next once these are taken. */
  more: boolean;
  /** The key is refused: the streams end. */
  ends: boolean;
}

export class FeedPoller<Item> {
  private readonly subscribers = new Set<Subscriber<Item>>();
  /** What is news (what was seen, how the upstream is read). */
  private readonly news: PollerFeed<Item>;
  private timer: NodeJS.Timeout | null = null;
  private begun = false;
  private running = false;
  private wakeRequested = false;
  private stopped = false;
  private failures = 0;
  private readonly signal = new RequestSignal();
  /** Its share in one polling across processes (REDIS_URL); null: it polls alone. */
  private readonly sharing: PollSharing<Item> | null;

  constructor(private readonly options: FeedPollerOptions<Item>) {
    this.news = options.feed;
    this.sharing = options.share
      ? new PollSharing<Item>(
          options.share,
          this.news,
          (events) => (this.stopped ? Promise.resolve() : this.emitAll(events)),
          Math.max(1_000, 3 * options.pollMs),
          (from, to, then) => this.news.missed(from, to, then, this.callerLoaders().loaders),
        )
      : null;
  }

  add(subscriber: Subscriber<Item>): void {
    this.subscribers.add(subscriber);
    if (!this.begun) {
      this.begun = true;
      // Alone, the baseline is now; shared, it is the position the lease comes with.
      if (!this.sharing) this.news.start();
      this.schedule(0);
    }
  }

  /** Returns whether the poller is now unused (and stopped). */
  remove(subscriber: Subscriber<Item>): boolean {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size > 0) return false;
    this.stop();
    return true;
  }

  /** A write of this key to the project: poll now (after the poll in flight, if any). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(0);
  }

  /** Whether it has stopped (its last subscriber left, or an answer ended it): it takes no one new. */
  get ended(): boolean {
    return this.stopped;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.signal.abort(new Error('poller stopped'));
    this.sharing?.close();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  /**
   * Tells every subscriber; settles when each has taken the event. One that throws is its own
   * stream's failure: the others are told all the same, and the poller goes on.
   */
  private emit(event: PollerEvent<Item>): Promise<unknown> {
    const taken: Promise<unknown>[] = [];
    for (const subscriber of this.subscribers) {
      try {
        taken.push(subscriber(event));
      } catch {
        // Nothing of it reaches the other subscribers.
      }
    }
    return Promise.all(taken);
  }

  /** Emits each event in order; settles when the last entry has been taken. */
  private emitAll(events: PollerEvent<Item>[]): Promise<unknown> {
    let taken: Promise<unknown> = Promise.resolve();
    for (const event of events) {
      if (event.kind === 'entry') this.options.onItem?.(event.entry);
      const emitted = this.emit(event);
      if (event.kind === 'entry') taken = emitted;
    }
    if (events.some((event) => event.kind === 'end')) this.stop();
    return taken;
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.running = true;
    let nextMs: number | null;
    try {
      nextMs = await this.pollOnce();
    } catch {
      // Whatever failed, the feed is not left silent: the next poll comes as it would.
      nextMs = this.options.pollMs;
    } finally {
      this.running = false;
    }
    if (nextMs === null || this.stopped) return;
    if (this.wakeRequested) {
      this.wakeRequested = false;
      nextMs = 0;
    }
    this.schedule(nextMs);
  }

  /** One poll, its events delivered: the wait before the next, or null when the poller ends. */
  private async pollOnce(): Promise<number | null> {
    const { sharing } = this;
    // Shared: only the process holding the lease reads the upstream.
    if (sharing && !(await sharing.mayPoll())) return this.options.pollMs;
    const before = sharing ? this.news.position() : null;
    const reading = sharing ? await sharing.renewWhile(this.readEvents()) : await this.readEvents();
    if (this.stopped) return null;
    const published = sharing
      ? await sharing.publish(reading.events, before!)
      : { taken: this.emitAll(reading.events) };
    // Not published (Redis lost): read again from the same position once it is back.
    if (published === null) return this.options.pollMs;
    if (reading.ends) return null;
    if (reading.more) {
      // The rest of a burst is read once this page is taken (or the poll's deadline passes), so
      // a subscriber's backlog stays within a page whatever the burst.
      await Promise.race([
        published.taken,
        new Promise((resolve) => setTimeout(resolve, this.options.pollDeadlineMs)),
      ]);
    }
    return reading.nextMs;
  }

  /** The upstream read once: the events for the subscribers, and when to read again. */
  private async readEvents(): Promise<Reading<Item>> {
    try {
      const { fresh, leftOut, more } = await this.readNews();
      this.failures = 0;
      const events: PollerEvent<Item>[] = leftOut ? [{ kind: 'error', error: catchUpExceeded() }] : [];
      for (const entry of fresh) events.push({ kind: 'entry', entry });
      const { pace, pollMs } = this.options;
      const nextMs = more ? 0 : pace ? await pace(pollMs) : pollMs;
      return { events, nextMs, more: more === true, ends: false };
    } catch (error) {
      const coded = error as GraphQLError;
      const code = String(coded.extensions?.code ?? '');
      if (ENDING_CODES.has(code))
        return { events: [{ kind: 'end', error: coded }], nextMs: 0, more: false, ends: true };
      this.failures++;
      const nextMs = retryDelayMs(coded, this.failures, this.options.pollMs);
      return { events: [{ kind: 'error', error: coded }], nextMs, more: false, ends: false };
    }
  }

  /** One poll's news, read with this poller's key and deadline. */
  private readNews() {
    const { loaders, stale } = this.callerLoaders();
    return this.news.read(loaders, stale);
  }

  /** Loaders with this poller's key and deadline; `stale`: whether a kept answer stood in. */
  private callerLoaders() {
    const { client, authorization, pollDeadlineMs } = this.options;
    let stale = false;
    const upstream = client.forCaller({
      authorization,
      signal: this.signal,
      deadline: Date.now() + pollDeadlineMs,
      priority: 'poller',
      onStale: () => {
        stale = true;
      },
    });
    return { loaders: createLoaders(upstream), stale: () => stale };
  }
}
