// The streams of a polled feed (the activity log, destination health): one FeedPoller per (hash
// of key, arguments) in this process, shared by that key's subscribers with those arguments,
// woken by that key's writes to the project, stopped when the last subscriber leaves, never
// shared across keys (and, sharing a Redis, one polling across the processes: the poller's
// `share`). Each stream gets its own async iterator; ending it (the subscriber leaves, shutdown)
// releases its place and, with the last one, the poller.
import { Repeater } from 'graphql-yoga';
import type { KeyHash } from '../core/caller-key.ts';
import { mayBeSameProject } from '../core/ids.ts';
import { RequestSignal } from '../upstream/request-signal.ts';
import { boundedPush } from './activity/bounded-push.ts';
import type { FeedPoller, PollerEvent, Subscriber } from './activity/poller.ts';
import type { WakeBus } from './wake-bus.ts';

interface SharedPoller<Item> {
  poller: FeedPoller<Item>;
  stopWake: () => void;
}

/** How a stream begins: joins its poller at once, or after work of its own (a resumed feed). */
export interface StreamStart<Item> {
  /** Joins the poller with `subscriber`. */
  join: (subscriber: Subscriber<Item>) => void;
  /** The stream's push, its backlog bounded (bounded-push.ts). */
  push: (event: PollerEvent<Item>) => Promise<unknown>;
  stop: (error?: unknown) => void;
  /** Settles when the stream is over. */
  stopped: Promise<unknown>;
  /** Aborted when the stream ends. */
  signal: RequestSignal;
}

export class FeedStreams<Args extends { projectId: string }, Item> {
  private readonly pollers = new Map<string, SharedPoller<Item>>();
  private readonly ends = new Set<() => void>();

  constructor(
    private readonly wake: WakeBus,
    private readonly newPoller: (key: KeyHash, authorization: string, args: Args) => FeedPoller<Item>,
  ) {}

  /** Pollers running now (for tests and metrics). */
  get pollerCount(): number {
    return this.pollers.size;
  }

  /** A stream of the poller of `key` with `args`; `start` replaces joining it at once. */
  open(
    key: KeyHash,
    authorization: string,
    args: Args,
    start?: (begin: StreamStart<Item>) => void,
  ): AsyncIterableIterator<PollerEvent<Item>> {
    // Started at the first read of the stream: a stream never read starts nothing.
    return new Repeater<PollerEvent<Item>>(async (push, stop) => {
      const id = `${key}\n${JSON.stringify(args)}`;
      let joined: { shared: SharedPoller<Item>; subscriber: Subscriber<Item> } | null = null;
      const join = (subscriber: Subscriber<Item>) => {
        const shared = this.pollerFor(id, key, authorization, args);
        joined = { shared, subscriber };
        shared.poller.add(subscriber);
      };
      const end = () => stop();
      this.ends.add(end);
      const signal = new RequestSignal();
      const pushBounded = boundedPush(push, stop);
      if (start) {
        start({ join, push: pushBounded, stop: (error) => stop(error), stopped: stop, signal });
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
      const left = joined as { shared: SharedPoller<Item>; subscriber: Subscriber<Item> } | null;
      if (left?.shared.poller.remove(left.subscriber)) {
        left.shared.stopWake();
        // A poller an answer ended may have been replaced meanwhile: only its own entry goes.
        if (this.pollers.get(id) === left.shared) this.pollers.delete(id);
      }
    });
  }

  private pollerFor(id: string, key: KeyHash, authorization: string, args: Args): SharedPoller<Item> {
    let shared = this.pollers.get(id);
    // Ended by an answer (its subscribers are still leaving): a newcomer gets a poller of its own.
    if (shared?.poller.ended) {
      shared.stopWake();
      shared = undefined;
    }
    if (!shared) {
      const poller = this.newPoller(key, authorization, args);
      // A write of this key to the project may change what the feed reads: read it now.
      const stopListening = this.wake.listen(key, (written) => {
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
