// The connection to Redis when REDIS_URL is set: one client for commands and one for pub/sub
// (a subscribed connection takes only subscriptions and PING). Keys are prefixed (REDIS_KEY_PREFIX) and
// hold hashes of keys, never a key; every key written has a TTL.
//
// Failure policy (docs/operating.md, When Redis is lost):
// - unreachable at start: start-up fails with a message naming REDIS_URL (and no password);
// - lost while running (closed, or a command unanswered for SILENT_REDIS_MS; the pub/sub
//   connection is pinged every PRESENCE_MS so that it is timed too): commands fail at
//   once (no offline queue, so no request waits on Redis past that),
//   `healthy` is false and each shared thing falls back to this process alone; /health says
//   degraded, /ready stays 200 unless READY_REQUIRES_REDIS; `onHealthChange` listeners hear each
//   transition once (observability/wiring.ts logs it); ioredis reconnects on its own and
//   subscribes again to the channels it had (shared-polling.ts adds those that failed meanwhile);
// - slow (its answers to the presence beat take REDIS_SLOW_MS or more, redis-latency.ts): still
//   healthy, and /health and gateway_redis_slow say so, with the latency.
import { randomUUID } from 'node:crypto';
import type { ChainableCommander } from 'ioredis';
import { makeClient, type RedisClient, type RedisTopology } from './redis-clients.ts';
import { RedisLatency } from './redis-latency.ts';
import { RedisUnavailableError } from './redis-unavailable.ts';
import { SILENT_REDIS_MS } from './silent-redis.ts';

export interface RedisSettings extends RedisTopology {
  url: string;
  /** The URL without credentials, for messages. */
  label: string;
  keyPrefix: string;
  /** READY_REQUIRES_REDIS: /ready fails while Redis is lost. */
  requiredForReady: boolean;
  /** REDIS_SLOW_MS: answers this slow or slower say Redis is slow. */
  slowMs?: number;
}

/** REDIS_SLOW_MS's default. */
export const DEFAULT_REDIS_SLOW_MS = 250;

/** Every PRESENCE_MS a process says it is alive; one silent for 3 of those is counted gone. */
export const PRESENCE_MS = 2_000;

export class SharedRedis {
  /** This process, among those sharing the Redis. */
  readonly processId = randomUUID();
  private lastReason = 'connecting';
  private presenceTimer: NodeJS.Timeout | null = null;
  /** Processes seen alive at the last presence beat (this one included); 1 until known. */
  peers = 1;
  /** `healthy` as last told to the listeners: each transition is told once. */
  private wasHealthy: boolean;
  private readonly healthListeners: ((healthy: boolean) => void)[] = [];
  private closing = false;
  /** How long Redis takes to answer the presence beat. */
  private readonly latency: RedisLatency;

  private constructor(
    readonly commands: RedisClient,
    readonly subscriber: RedisClient,
    readonly settings: RedisSettings,
    /** Channels are a cluster's sharded ones (SSUBSCRIBE, SPUBLISH): each on its slot's master. */
    readonly sharded: boolean,
  ) {
    this.latency = new RedisLatency(settings.slowMs ?? DEFAULT_REDIS_SLOW_MS);
    for (const client of [commands, subscriber]) {
      client.on('error', (error: Error & { code?: string }) => {
        this.lastReason = error.message.startsWith('Socket timeout')
          ? `Redis at ${settings.label} silent for ${SILENT_REDIS_MS / 1000} s`
          : `Redis at ${settings.label} unreachable (${error.code ?? error.name})`;
      });
      client.on('close', () => {
        if (!this.lastReason.startsWith('Redis'))
          this.lastReason = `Redis at ${settings.label} closed the connection`;
      });
      // ioredis sets `status` before it emits: every event may be a transition of `healthy`.
      for (const event of ['ready', 'close', 'end', 'reconnecting'])
        client.on(event, () => this.noticeHealth());
    }
    this.wasHealthy = this.healthy;
  }

  /** `listener` hears every change of `healthy` from now on: false when lost, true when back. */
  onHealthChange(listener: (healthy: boolean) => void): void {
    this.healthListeners.push(listener);
  }

  private noticeHealth(): void {
    const healthy = this.healthy;
    if (!healthy) this.latency.reset();
    if (healthy === this.wasHealthy || this.closing) return;
    this.wasHealthy = healthy;
    for (const listener of this.healthListeners) listener(healthy);
  }

  get requiredForReady(): boolean {
    return this.settings.requiredForReady;
  }

  /** Connects both clients; throws naming REDIS_URL when Redis does not answer in time. */
  static async connect(settings: RedisSettings): Promise<SharedRedis> {
    const commands = makeClient(settings);
    let subscriber: RedisClient | null = null;
    let sharded = false;
    try {
      await commands.connect();
      await commands.ping();
      sharded = settings.cluster === true && (await offersShardedPubSub(commands));
      subscriber = makeClient(settings, sharded);
      await subscriber.connect();
    } catch (error) {
      commands.disconnect();
      subscriber?.disconnect();
      const code = (error as { code?: string }).code ?? (error as Error).message;
      throw new RedisUnavailableError(`REDIS_URL: Redis at ${settings.label} does not answer (${code})`);
    }
    const redis = new SharedRedis(commands, subscriber, settings, sharded);
    redis.startPresence();
    return redis;
  }

  /** Whether commands can be sent now. */
  get healthy(): boolean {
    return this.commands.status === 'ready' && this.subscriber.status === 'ready';
  }

  /** Milliseconds Redis takes to answer now (redis-latency.ts). */
  get latencyMs(): number {
    return this.latency.latencyMs;
  }

  /** Healthy, but answering in REDIS_SLOW_MS or more. */
  get slow(): boolean {
    return this.healthy && this.latency.slow;
  }

  /** Why it is not healthy (for /ready). */
  get reason(): string {
    return this.healthy ? 'Redis answers' : this.lastReason;
  }

  /** A channel's full name (pub/sub takes no key prefix of its own). */
  channel(name: string): string {
    return `${this.settings.keyPrefix}${name}`;
  }

  /** The name ioredis takes for a sharded channel: it prefixes a shard channel as it does a key. */
  private shardName(channel: string): string {
    return channel.slice(this.settings.keyPrefix.length);
  }

  /** Subscribes the pub/sub connection to these channels (full names, as channel() gives). */
  async subscribe(...channels: string[]): Promise<void> {
    if (!this.sharded) {
      await this.subscriber.subscribe(...channels);
      return;
    }
    // One at a time: each channel is on its own slot.
    await Promise.all(channels.map((channel) => this.subscriber.ssubscribe(this.shardName(channel))));
  }

  async unsubscribe(channel: string): Promise<void> {
    if (this.sharded) await this.subscriber.sunsubscribe(this.shardName(channel));
    else await this.subscriber.unsubscribe(channel);
  }

  /** `listener` hears each message of the channels subscribed to, by the channel's full name. */
  onMessage(listener: (channel: string, text: string) => void): void {
    this.subscriber.on(this.sharded ? 'smessage' : 'message', listener);
  }

  /** Publishes `text` on `channel` (a full name); rejects when Redis fails. */
  publish(channel: string, text: string): Promise<unknown> {
    return this.sharded
      ? this.commands.spublish(this.shardName(channel), text)
      : this.commands.publish(channel, text);
  }

  /** Adds the publishing of `text` on `channel` to a transaction (on the channel's slot, sharded). */
  publishIn(transaction: ChainableCommander, channel: string, text: string): ChainableCommander {
    return this.sharded
      ? transaction.spublish(this.shardName(channel), text)
      : transaction.publish(channel, text);
  }

  /**
   * Presence: how many processes share this Redis (what each one's fallback share is). And a
   * ping on the pub/sub connection, which sends nothing while idle: timed as every command is
   * (socketTimeout), one gone silent (forgotten by a NAT or a load balancer while idle) is found
   * within PRESENCE_MS + SILENT_REDIS_MS and made again, where its subscribers heard nothing
   * until TCP's keep-alive gave up on it, minutes later; and the traffic keeps such a middlebox
   * from forgetting it.
   */
  private startPresence(): void {
    const beat = async () => {
      this.latency.time(this.subscriber.ping()).catch(() => undefined);
      const now = Date.now();
      try {
        const [, , [, count]] = (await this.latency.time(
          this.commands
            .multi()
            .zadd('processes', now, this.processId)
            .zremrangebyscore('processes', '-inf', now - 3 * PRESENCE_MS)
            .zcard('processes')
            .pexpire('processes', 10 * PRESENCE_MS)
            .exec(),
        )) as [unknown, unknown, [unknown, number]];
        this.peers = Math.max(1, count);
      } catch {
        // Redis lost: keep the last count (the budget's fallback share).
      }
    };
    void beat();
    this.presenceTimer = setInterval(() => void beat(), PRESENCE_MS);
    this.presenceTimer.unref();
  }

  async close(): Promise<void> {
    // Disconnecting on shutdown is no loss to report.
    this.closing = true;
    if (this.presenceTimer) clearInterval(this.presenceTimer);
    await this.commands.zrem('processes', this.processId).catch(() => undefined);
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}

/** Whether the cluster's servers take sharded pub/sub (Redis 7 or later). */
async function offersShardedPubSub(commands: RedisClient): Promise<boolean> {
  const info = await commands.info('server');
  const major = Number(/redis_version:(\d+)/.exec(info)?.[1] ?? 0);
  return major >= 7;
}
