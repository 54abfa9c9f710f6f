// An activity poller's share in one polling across the processes sharing a Redis
// (shared-state/shared-polling.ts says how the lease, the position and the channel work):
// whether this process may poll now, its findings published as one numbered message with the
// position after them, and every message of the poller (its own too) handed to this process's
// subscribers once, in order. Messages skipped (not heard here: a failover, a silent connection,
// or before this process listened) are read again from the last position handed over to the next
// message's (the feed's `missed`), and handed over before it.
import type { GraphQLError } from 'graphql';
import type {
  FeedPosition,
  KeptPosition,
  PollerLink,
  PollerMessage,
} from '../../shared-state/shared-polling.ts';
import type { PollerEvent, PollerFeed } from './poller.ts';
import { fromWire, toWire } from './poller-wire.ts';

/**
 * How long this process's own message may take to come back through Redis (a millisecond or so
 * when all is well) before it is taken as lost and handed to the subscribers here. Long enough
 * that a message of another process's, published before this one took the lease, is heard first.
 */
const OWN_MESSAGE_RETURN_MS = 1_000;

export type Share = (receive: (message: PollerMessage) => void) => Promise<PollerLink>;
/** What the messages between two positions carried, read again; `then` the later message's items. */
export type ReadMissed<I> = (from: FeedPosition, to: FeedPosition, then: I[]) => Promise<PollerEvent<I>[]>;

interface Unheard {
  message: PollerMessage;
  heard: (taken: Promise<unknown>) => void;
  lost?: NodeJS.Timeout;
}

export class PollSharing<Item> {
  private readonly link: Promise<PollerLink>;
  private holding = false;
  /** The newest message known (published or received), and the newest handed over here. */
  private seq = 0;
  private deliveredSeq = 0;
  /** The position the last message handed over left (or this process joined at); null: none. */
  private deliveredPosition: FeedPosition | null = null;
  /** Messages to hand over, in the order heard, waiting while a gap is read again (or the join). */
  private readonly waiting: PollerMessage[] = [];
  private mending = true;
  /** Messages of this process's not yet come back, oldest first, and what settles when taken. */
  private readonly unheard = new Map<number, Unheard>();
  /**
   * A message of this process's whose publishing failed without saying whether Redis ran it (its
   * answer lost with the connection): settled at the next lease, by the position Redis kept.
   */
  private unsure: PollerMessage | null = null;
  /** Whether the news has had its starting point: once, at the first lease with nothing known. */
  private started = false;

  constructor(
    share: Share,
    private readonly news: Pick<PollerFeed<Item>, 'start' | 'position' | 'resume'>,
    /** Hands events to this process's subscribers; settles when they have taken the entries. */
    private readonly emitAll: (events: PollerEvent<Item>[]) => Promise<unknown>,
    /** Three poll intervals, at least a second. */
    private readonly leaseMs: number,
    private readonly readMissed: ReadMissed<Item>,
  ) {
    this.link = share((message) => this.receive(message));
    void this.link.then(
      (link) => this.join(link.joined),
      () => this.join(undefined),
    );
  }

  /** From the position kept when it linked (none: a new poller, news from now); unknown: the first heard. */
  private join(joined: KeptPosition | null | undefined): void {
    if (joined === null) {
      this.news.start();
      this.deliveredPosition = this.news.position();
    } else if (joined) {
      this.deliveredSeq = joined.seq;
      this.deliveredPosition = joined.position;
    }
    this.mending = false;
    this.drain();
  }

  /** Takes or renews the lease; just taken, the news goes on from the newest position known. */
  async mayPoll(): Promise<boolean> {
    const link = await this.link;
    if (!(await link.hold(this.leaseMs))) {
      this.holding = false;
      return false;
    }
    if (!this.holding) {
      // Redis cannot say what it kept: nobody polls until it can (polling from a guess could
      // repeat, or lose, what the last message carried).
      const kept = await link.kept().catch(() => undefined);
      if (kept === undefined) return false;
      this.holding = true;
      this.settleUnsure(kept);
      if (kept && kept.seq > this.seq) {
        this.seq = kept.seq;
        this.news.resume(kept.position);
      } else if (this.seq === 0 && !this.started) {
        this.news.start();
      }
      this.started = true;
    }
    return true;
  }

  /**
   * The message whose publishing failed, by what Redis kept: run (kept at or past its number),
   * it is handed to this process's subscribers if it did not come back to them; not run, it is
   * read again under its number. Redis keeping nothing (its data lost) cannot say: the number is
   * not used again, so that, had it run, the next message is not taken for it (its entries may
   * come twice; none is lost).
   */
  private settleUnsure(kept: KeptPosition | null): void {
    const unsure = this.unsure;
    if (!unsure) return;
    if (kept === null) {
      this.unsure = null;
      this.seq = Math.max(this.seq, unsure.seq);
    } else if (kept.seq >= unsure.seq) {
      this.receive(unsure);
    } else {
      this.unsure = null;
    }
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
   * position goes back to `before`, to be read again. Else, as soon as Redis took it, `taken`:
   * what settles when this process's subscribers have taken its entries.
   */
  async publish(
    events: PollerEvent<Item>[],
    before: FeedPosition,
  ): Promise<{ taken: Promise<unknown> } | null> {
    const link = await this.link;
    const seq = this.seq + 1;
    const message: PollerMessage = { seq, position: this.news.position(), events: events.map(toWire) };
    // Set before publishing: the pub/sub connection may bring it back before the commands one says
    // it was published.
    const taken = new Promise<Promise<unknown>>((heard) => this.unheard.set(seq, { message, heard }));
    this.seq = seq;
    try {
      await link.publish(message);
    } catch {
      // Come back through the channel already: Redis ran it, whatever its answer said.
      if (this.deliveredSeq >= seq || this.waiting.some((m) => m.seq === seq)) return { taken };
      this.unheard.delete(seq);
      // Not run, or run with its answer lost: read again from before it, once the next lease has
      // said which (mayPoll). Published again under this number, a message that did run would be
      // taken everywhere for the one already had, and dropped with whatever was found since.
      this.seq = seq - 1;
      this.news.resume(before);
      this.unsure = message;
      this.holding = false;
      return null;
    }
    // It comes back through the channel, in order with the messages of others. Lost on the way
    // (the pub/sub connection dropped or went silent meanwhile), it is handed over from here.
    const unheard = this.unheard.get(seq);
    if (unheard) {
      unheard.lost = setTimeout(() => this.receive(message), OWN_MESSAGE_RETURN_MS);
      unheard.lost.unref();
    }
    // In an object: a promise returned bare would be awaited by whoever awaits the publish.
    return { taken };
  }

  /** A message of this poller, from this process or another: each once, in order. */
  private receive(message: PollerMessage): void {
    // The message whose publishing failed: one numbered after it says it ran (its number was
    // known to whoever numbered that one), and comes after it; one of its number is the message
    // every process has, whichever process's it is.
    const unsure = this.unsure;
    if (unsure && message.seq >= unsure.seq) {
      this.unsure = null;
      if (message.seq > unsure.seq) this.receive(unsure);
    }
    // This process's own older messages that have not come back by now were lost: theirs first.
    for (const [seq, unheard] of this.unheard) {
      if (seq >= message.seq) break;
      this.deliver(unheard.message);
    }
    this.deliver(message);
  }

  private deliver(message: PollerMessage): void {
    this.waiting.push(message);
    if (!this.mending) this.drain();
  }

  /** Hands over what waits, in order, until a gap: read again, then on. */
  private drain(): void {
    while (this.waiting.length > 0) {
      const message = this.waiting[0]!;
      const from = this.deliveredPosition;
      if (from && message.seq > this.deliveredSeq + 1) {
        this.mending = true;
        void this.mend(from, message).finally(() => {
          this.mending = false;
          this.drain();
        });
        return;
      }
      this.waiting.shift();
      this.handOver(message);
    }
  }

  /** The entries of the messages not heard before `message`, handed over; then it is next. */
  private async mend(from: FeedPosition, message: PollerMessage): Promise<void> {
    const then = message.events.flatMap((event) => (event.kind === 'entry' ? [event.entry as Item] : []));
    // Read or not, the message is next (a read that failed is reported to the subscribers).
    const events = await this.readMissed(from, message.position, then).catch(
      (error: GraphQLError): PollerEvent<Item>[] => [{ kind: 'error', error }],
    );
    this.deliveredSeq = Math.max(this.deliveredSeq, message.seq - 1);
    void this.emitAll(events);
  }

  private handOver(message: PollerMessage): void {
    const unheard = this.unheard.get(message.seq);
    this.unheard.delete(message.seq);
    clearTimeout(unheard?.lost);
    // Handed over already (or overtaken by a newer one): nothing more is owed for it.
    if (message.seq <= this.deliveredSeq) {
      unheard?.heard(Promise.resolve());
      return;
    }
    this.deliveredSeq = message.seq;
    this.deliveredPosition = message.position;
    if (message.seq > this.seq) {
      // Another process polled: its position is where this one would go on from.
      this.seq = message.seq;
      this.news.resume(message.position);
    }
    const taken = this.emitAll(message.events.map((event) => fromWire<Item>(event)));
    unheard?.heard(taken);
  }

  /** The last subscriber here left. */
  close(): void {
    void this.link.then((link) => link.close());
  }
}
