// An activity poller's share in one polling across the processes sharing a Redis
// (shared-state/shared-polling.ts says how the lease, the position and the channel work):
// whether this process may poll now, its findings published as one numbered message with the
// position after them, and every message of the poller (its own too) handed to this process's
// subscribers once, in order.
import { GraphQLError } from 'graphql';
import type { PollerLink, PollerMessage, WireEvent } from '../shared-state/shared-polling.ts';
import type { ActivityNews, NewsPosition } from './activity-news.ts';
import type { PollerEvent } from './activity-poller.ts';

const toWire = (event: PollerEvent): WireEvent =>
  event.kind === 'entry'
    ? event
    : { kind: event.kind, message: event.error.message, extensions: { ...event.error.extensions } };
const fromWire = (event: WireEvent): PollerEvent =>
  event.kind === 'entry'
    ? event
    : { kind: event.kind, error: new GraphQLError(event.message, { extensions: event.extensions }) };

export type Share = (receive: (message: PollerMessage) => void) => Promise<PollerLink>;

export class PollSharing {
  private readonly link: Promise<PollerLink>;
  private holding = false;
  /** The newest message known (published or received), and the newest handed to subscribers. */
  private seq = 0;
  private deliveredSeq = 0;
  /** Messages of this process's, waiting to come back: what settles when they are taken. */
  private readonly waiting = new Map<number, (taken: Promise<unknown>) => void>();

  constructor(
    share: Share,
    private readonly news: ActivityNews,
    /** Hands events to this process's subscribers; settles when they have taken the entries. */
    private readonly emitAll: (events: PollerEvent[]) => Promise<unknown>,
    /** Three poll intervals, at least a second. */
    private readonly leaseMs: number,
  ) {
    this.link = share((message) => this.receive(message));
  }

  /** Takes or renews the lease; just taken, the news goes on from the newest position known. */
  async mayPoll(): Promise<boolean> {
    const link = await this.link;
    if (!(await link.hold(this.leaseMs))) {
      this.holding = false;
      return false;
    }
    if (!this.holding) {
      this.holding = true;
      const kept = await link.kept();
      if (kept && kept.seq > this.seq) {
        this.seq = kept.seq;
        this.news.resume(kept.position);
      } else if (this.seq === 0) {
        this.news.start();
      }
    }
    return true;
  }

  /** A poll may outlast the lease (a slow upstream, a fitting Retry-After): renewed meanwhile. */
  async renewWhile<T>(work: Promise<T>): Promise<T> {
    const link = await this.link;
    const renewing = setInterval(() => void link.hold(this.leaseMs), this.leaseMs / 3);
    try {
      return await work;
    } finally {
      clearInterval(renewing);
    }
  }

  /**
   * One numbered message with the position after it. Null when Redis did not take it: the
   * position goes back to `before`, to be read again. Else what settles when this process's
   * subscribers have taken its entries.
   */
  async publish(events: PollerEvent[], before: NewsPosition): Promise<Promise<unknown> | null> {
    const link = await this.link;
    const seq = this.seq + 1;
    const delivered = new Promise<Promise<unknown>>((resolve) => this.waiting.set(seq, resolve));
    const message: PollerMessage = { seq, position: this.news.position(), events: events.map(toWire) };
    this.seq = seq;
    try {
      await link.publish(message);
    } catch {
      this.waiting.delete(seq);
      this.seq = seq - 1;
      this.news.resume(before);
      return null;
    }
    return delivered.then((taken) => taken);
  }

  /** A message of this poller, from this process or another: each once, in order. */
  private receive(message: PollerMessage): void {
    if (message.seq <= this.deliveredSeq) return;
    this.deliveredSeq = message.seq;
    if (message.seq > this.seq) {
      // Another process polled: its position is where this one would go on from.
      this.seq = message.seq;
      this.news.resume(message.position);
    }
    const taken = this.emitAll(message.events.map(fromWire));
    this.waiting.get(message.seq)?.(taken);
    this.waiting.delete(message.seq);
  }

  /** The last subscriber here left. */
  close(): void {
    void this.link.then((link) => link.close());
  }
}
