// Subscription.activityAdded: one ActivityPoller per (hash of key, project, filters) in this
// process, shared by that key's subscribers with those arguments, stopped when the last leaves,
// never shared across keys (and, sharing a Redis, one polling across the processes). Subscribers
// of the very same operation share one stream before they get here (shared-live-work.ts), which
// also counts their slots.
// Each stream gets its own async iterator; ending it (the subscribers leave, shutdown) releases
// its place and, with the last one, the poller. A subscriber that resumes (`after`) reads
// what it missed on its own before it joins the poller (resumed-stream.ts).
import { Repeater } from 'graphql-yoga';
import { hashKey, type KeyHash } from '../../core/caller-key.ts';
import { mayBeSameProject } from '../../core/ids.ts';
import { codedError, missingAuthorization } from '../../errors/codes.ts';
import { createLoaders } from '../../loaders/index.ts';
import type { PollingShare } from '../../shared-state/shared-polling.ts';
import type { UpstreamClient } from '../../upstream/client.ts';
import { RequestSignal } from '../../upstream/request-signal.ts';
import type { PollPace } from '../poll-pace.ts';
import type { WakeBus } from '../wake-bus.ts';
import { ActivityCatchUp, type ReadNewestFirst, type ResumePoint } from './catch-up.ts';
import { catchUpExceeded } from './poll-failures.ts';
import { type ActivityArgs, ActivityPoller, type PollerEvent, type Subscriber } from './poller.ts';
import { runResumed } from './resumed-stream.ts';

export interface ActivitySubscriptionsOptions {
  client: UpstreamClient;
  wake: WakeBus;
  pollMs: number;
  pollDeadlineMs: number;
  /** One poller per key and arguments across the processes sharing a Redis. */
  polling?: PollingShare | null;
  /** Slows each key's pollers as its budget tightens; the setting alone when not given. */
  pace?: PollPace;
}

interface SharedPoller {
  poller: ActivityPoller;
  stopWake: () => void;
}

export class ActivitySubscriptions {
  private readonly pollers = new Map<string, SharedPoller>();
  private readonly ends = new Set<() => void>();

  constructor(private readonly options: ActivitySubscriptionsOptions) {}

  /** Pollers running now (for tests and metrics). */
  get pollerCount(): number {
    return this.pollers.size;
  }

  /** With `after`, the stream first delivers what came after that entry (resumed-stream.ts). */
  subscribe(
    authorization: string | null,
    args: ActivityArgs,
    after: ResumePoint | null = null,
  ): AsyncIterableIterator<PollerEvent> {
    if (!authorization) throw missingAuthorization();
    return this.stream(hashKey(authorization), authorization, args, after);
  }

  private stream(
    key: KeyHash,
    authorization: string,
    args: ActivityArgs,
    after: ResumePoint | null,
  ): AsyncIterableIterator<PollerEvent> {
    // Started at the first read of the stream: a stream never read starts nothing.
    return new Repeater<PollerEvent>(async (push, stop) => {
      const id = `${key}\n${JSON.stringify(args)}`;
      let joined: { shared: SharedPoller; subscriber: Subscriber } | null = null;
      const join = (subscriber: Subscriber) => {
        const shared = this.pollerFor(id, key, authorization, args);
        joined = { shared, subscriber };
        shared.poller.add(subscriber);
      };
      const end = () => stop();
      this.ends.add(end);
      const signal = new RequestSignal();
      const pushBounded = boundedPush(push, stop);
      if (after) {
        void runResumed({
          catchUp: new ActivityCatchUp(after, logName(args), () => catchUpExceeded(`after \`after\``)),
          reader: () => this.reader(authorization, args, signal),
          // Settles when the reader takes it, or at once when the stream is over.
          push: (event) => Promise.race([pushBounded(event), stop]),
          join,
          stop: () => stop(),
          signal,
          pollMs: this.options.pollMs,
        }).catch((error: unknown) => stop(error));
      } else {
        join((event) => {
          const taken = pushBounded(event);
          if (event.kind === 'end') stop();
          // Settles when the stream's reader takes the event (the poller paces a burst by it).
          return taken;
        });
      }
      await stop;
      signal.abort(new Error('subscription ended'));
      this.ends.delete(end);
      const left = joined as { shared: SharedPoller; subscriber: Subscriber } | null;
      if (left?.shared.poller.remove(left.subscriber)) {
        left.shared.stopWake();
        // A poller an answer ended may have been replaced meanwhile: only its own entry goes.
        if (this.pollers.get(id) === left.shared) this.pollers.delete(id);
      }
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

  private pollerFor(id: string, key: KeyHash, authorization: string, args: ActivityArgs): SharedPoller {
    let shared = this.pollers.get(id);
    // Ended by an answer (its subscribers are still leaving): a newcomer gets a poller of its own.
    if (shared?.poller.ended) {
      shared.stopWake();
      shared = undefined;
    }
    if (!shared) {
      const poller = new ActivityPoller({
        client: this.options.client,
        authorization,
        args,
        pollMs: this.options.pollMs,
        pollDeadlineMs: this.options.pollDeadlineMs,
        pace: this.options.pace ? (ms) => this.options.pace!.intervalMs(key, 'activity', ms) : undefined,
        share: this.options.polling ? (receive) => this.options.polling!.link(key, args, receive) : undefined,
      });
      // Every write is logged in its project's activity.
      const stopListening = this.options.wake.listen(key, (written) => {
        if (mayBeSameProject(args.projectId, written.projectId)) poller.wake();
      });
      let listening = true;
      // Once: a replaced poller's last subscriber stops it again when it leaves.
      const stopWake = () => {
        if (listening) stopListening();
        listening = false;
      };
      shared = { poller, stopWake };
      this.pollers.set(id, shared);
    }
    return shared;
  }

  /** Shutdown: every stream ends cleanly (complete, not error). */
  closeAll(): void {
    for (const end of [...this.ends]) end();
  }
}

/**
 * The most events a stream may have been handed and not taken: a reading's (a page of 1,000
 * entries and an error event) and a few more. A Repeater refuses a 1,025th push by throwing.
 */
export const MAX_EVENTS_BEHIND = 1_020;

/** The stream ended because it fell MAX_EVENTS_BEHIND behind the log. */
export const fellBehind = () =>
  codedError(
    'QUERY_TOO_COMPLEX',
    `This subscription fell ${MAX_EVENTS_BEHIND} entries behind the activity log: its selection takes longer to answer than entries arrive (each entry's nested fields are read from the upstream). It has ended; subscribe again with \`after\` set to the id of the last entry you received to read on, or select fewer nested fields.`,
    { measure: 'activityBacklog', limit: MAX_EVENTS_BEHIND },
  );

/**
 * A stream's push that holds its backlog to MAX_EVENTS_BEHIND: the event that would go past it
 * ends the stream instead (fellBehind, after the events it has), and what comes after is dropped.
 * The poller paces a burst by the slowest stream only up to its deadline (activity-poller.ts), so
 * a stream whose each event costs upstream calls can fall behind a burst of several pages.
 */
function boundedPush(
  push: (event: PollerEvent) => Promise<unknown>,
  stop: () => unknown,
): (event: PollerEvent) => Promise<unknown> {
  let behind = 0;
  let ended = false;
  const taken = () => {
    behind--;
  };
  return (event) => {
    if (ended) return Promise.resolve();
    if (behind >= MAX_EVENTS_BEHIND - 1 && event.kind !== 'end') {
      ended = true;
      const last = push({ kind: 'end', error: fellBehind() });
      stop();
      return last;
    }
    behind++;
    const pushed = push(event);
    void pushed.then(taken, taken);
    return pushed;
  };
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
