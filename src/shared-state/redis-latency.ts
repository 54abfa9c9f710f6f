// How long Redis takes to answer, as the presence beat's commands find it (redis.ts): the round
// trip of the last one answered, or, while one is still unanswered, how long it has waited so
// far, whichever is longer. A Redis slow to answer thus shows (`slow`, past REDIS_SLOW_MS) while
// it is still short of being lost (SILENT_REDIS_MS unanswered), not only once it is.
export class RedisLatency {
  /** When each command timed and not yet answered was sent (one entry per command). */
  private readonly pending = new Map<symbol, number>();
  private lastMs = 0;

  constructor(private readonly slowMs: number) {}

  /** Times `command`'s round trip; its outcome passes through unchanged. */
  time<T>(command: Promise<T>): Promise<T> {
    const sentAt = Date.now();
    const token = Symbol();
    this.pending.set(token, sentAt);
    const settled = () => {
      this.pending.delete(token);
      this.lastMs = Date.now() - sentAt;
    };
    return command.finally(settled);
  }

  /** Forgets what was in flight (the connection was made again): it will never be answered. */
  reset(): void {
    this.pending.clear();
    this.lastMs = 0;
  }

  get latencyMs(): number {
    const now = Date.now();
    let latency = this.lastMs;
    for (const sentAt of this.pending.values()) latency = Math.max(latency, now - sentAt);
    return latency;
  }

  get slow(): boolean {
    return this.latencyMs >= this.slowMs;
  }
}
