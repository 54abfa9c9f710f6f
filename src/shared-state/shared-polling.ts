// One activity poller per (key hash, project, filters) across every process sharing a Redis. Each
// process with subscribers of a poller keeps a FeedPoller (live/activity/poller.ts: the activity feed's, or the destination health feed's), but only
// the one holding the poller's lease reads the upstream:
// - the lease (`lease:{<poller>}`) is taken or renewed at each poll (and during a long one) and
//   lapses after leaseMs (three polls, at least MIN_LEASE_MS); a holder that dies stops renewing, and another process with
//   subscribers takes it over at its next poll after that (so within leaseMs + one interval);
// - what a poll found goes out on the poller's channel (`activity:{<poller>}`) as one message,
//   numbered, with the position it leaves the poller at, in the same MULTI as the position is
//   stored (`position:{<poller>}`): either both happen or neither, so a holder that dies between
//   two polls loses nothing and the next one repeats nothing;
// - every process (the holder too) hands a message's events to its own subscribers, in order,
//   each message once (by its number), and keeps its position: a process that takes over goes
//   on from the newest position it knows, from Redis or from the messages it has read; one that
//   hears a number skipped reads again what it missed (live/activity/poll-sharing.ts), and one
//   that links starts from the position kept when it did (read before it listens).
// A poller's id is a hash of the key's hash and the arguments: no key is kept or sent. It is the
// hash tag of its keys and channel, so that a cluster keeps them on one slot (a sharded channel
// published in the position's MULTI must be on the position's slot). Positions
// are kept POSITION_TTL_S after the last poll.
import { createHash } from 'node:crypto';
import type { KeyHash } from '../core/caller-key.ts';
import type { SharedRedis } from './redis.ts';
import { SILENT_REDIS_MS } from './silent-redis.ts';

const POSITION_TTL_S = 600;
/**
 * The shortest lease: longer than a publish may wait for its answer (SILENT_REDIS_MS), so that a
 * holder whose answer is lost still holds the lease when it learns so, and settles its message
 * before another process polls on under the same number.
 */
const MIN_LEASE_MS = SILENT_REDIS_MS + 1_000;

/**
 * Where a poller stands, as its feed says (JSON): an activity poller's NewsPosition
 * (live/activity/news.ts), a health poller's states (live/health/feed.ts); `seen` names what it
 * has seen.
 */
export interface FeedPosition {
  seen: string[];
}

/** An event as it crosses Redis: an item (its JSON), or an error's message and extensions. */
export type WireEvent =
  | { kind: 'entry'; entry: unknown }
  | { kind: 'error' | 'end'; message: string; extensions: Record<string, unknown> };

export interface PollerMessage {
  /** 1, 2, …: each message is delivered once, in this order. */
  seq: number;
  position: FeedPosition;
  events: WireEvent[];
}

export interface KeptPosition {
  seq: number;
  position: FeedPosition;
}

/** KEYS[1] the lease; ARGV: this process, lease ms. 1: held by this process now. */
const HOLD = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** KEYS[1] the lease; ARGV[1] this process. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** One poller's lease, position and messages, wherever the processes share them. */
export interface PollerLink {
  /**
   * The position kept when this process linked, read before it listened: the messages after it
   * are this process's to deliver (a number skipped is read again: poll-sharing.ts). Null: none
   * kept (a new poller); undefined: it could not be said.
   */
  readonly joined: KeptPosition | null | undefined;
  /** Takes or renews the lease; false when another process holds it or nobody can say. */
  hold(leaseMs: number): Promise<boolean>;
  /** The position stored with the last message, or null; throws when that cannot be said. */
  kept(): Promise<KeptPosition | null>;
  /** Stores the position and sends the message to every process linked, both or neither. */
  publish(message: PollerMessage): Promise<void>;
  /** The last subscriber here left. */
  close(): Promise<void>;
}

/** Where the processes share pollers: through Redis (here) or the cluster's primary. */
export interface PollingShare {
  link(key: KeyHash, args: unknown, onMessage: (message: PollerMessage) => void): Promise<PollerLink>;
}

/** The poller id of a key and arguments: a hash, no key in it. */
export const pollerId = (key: KeyHash, args: unknown): string =>
  createHash('sha256')
    .update(`${key}\n${JSON.stringify(args)}`)
    .digest('hex');

/** A kept position as Redis holds it (JSON), if it reads. */
function keptOf(text: string | null): KeptPosition | null {
  try {
    const kept = text ? (JSON.parse(text) as KeptPosition) : null;
    return kept && Number.isInteger(kept.seq) && Array.isArray(kept.position?.seen) ? kept : null;
  } catch {
    return null;
  }
}

/** One poller's lease, position and channel. */
class RedisPollerLink implements PollerLink {
  constructor(
    private readonly redis: SharedRedis,
    private readonly id: string,
    private readonly channel: string,
    private readonly onClose: () => Promise<void>,
    readonly joined: KeptPosition | null | undefined,
  ) {}

  /** Takes or renews the lease; false when another process holds it or Redis cannot say. */
  async hold(leaseMs: number): Promise<boolean> {
    if (!this.redis.healthy) return false;
    try {
      return (
        (await this.redis.commands.eval(
          HOLD,
          1,
          `lease:{${this.id}}`,
          this.redis.processId,
          Math.max(leaseMs, MIN_LEASE_MS),
        )) === 1
      );
    } catch {
      return false;
    }
  }

  /**
   * The position stored with the last message, if Redis still has one that reads; throws when
   * Redis fails (it cannot say).
   */
  async kept(): Promise<KeptPosition | null> {
    return keptOf(await this.redis.commands.get(`position:{${this.id}}`));
  }

  /** Stores the position and publishes the message, both or neither; throws when Redis fails. */
  async publish(message: PollerMessage): Promise<void> {
    const kept: KeptPosition = { seq: message.seq, position: message.position };
    const transaction = this.redis.commands
      .multi()
      .set(`position:{${this.id}}`, JSON.stringify(kept), 'EX', POSITION_TTL_S);
    const results = await this.redis.publishIn(transaction, this.channel, JSON.stringify(message)).exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis did not run the transaction');
  }

  /** The last subscriber here left: the lease goes (if held here) and the channel is left. */
  async close(): Promise<void> {
    await this.redis.commands
      .eval(RELEASE, 1, `lease:{${this.id}}`, this.redis.processId)
      .catch(() => undefined);
    await this.onClose();
  }
}

export class SharedPolling implements PollingShare {
  private readonly handlers = new Map<string, (message: PollerMessage) => void>();

  constructor(private readonly redis: SharedRedis) {
    // Back after a loss: ioredis subscribes again to what it had; this adds what failed meanwhile.
    redis.subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()];
      if (channels.length > 0) redis.subscribe(...channels).catch(() => undefined);
    });
    redis.onMessage((channel, text) => {
      const handler = this.handlers.get(channel);
      if (!handler) return;
      try {
        handler(JSON.parse(text) as PollerMessage);
      } catch {
        // a message that is not a poller's
      }
    });
  }

  /** The link of the poller of `key` with `args`; its messages go to `onMessage` from now on. */
  async link(key: KeyHash, args: unknown, onMessage: (message: PollerMessage) => void): Promise<PollerLink> {
    const id = pollerId(key, args);
    const channel = this.redis.channel(`activity:{${id}}`);
    // Read before listening: a message published before the subscription took is then one
    // this process sees skipped, and reads again.
    const joined = this.redis.healthy
      ? await this.redis.commands.get(`position:{${id}}`).then(keptOf, () => undefined)
      : undefined;
    this.handlers.set(channel, onMessage);
    // Redis lost: subscribed again when it is back (the 'ready' listener).
    await this.redis.subscribe(channel).catch(() => undefined);
    const close = async () => {
      // A poller of the same id made since (a subscriber came back) keeps the channel.
      if (this.handlers.get(channel) !== onMessage) return;
      this.handlers.delete(channel);
      await this.redis.unsubscribe(channel).catch(() => undefined);
    };
    return new RedisPollerLink(this.redis, id, channel, close, joined);
  }
}
