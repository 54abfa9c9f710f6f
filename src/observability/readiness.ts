// GET /ready: may a load balancer send traffic here? Not once shutdown has begun, and not while
// the upstream does not answer a cheap unauthenticated probe within PROBE_TIMEOUT_MS. A probe's
// result is kept for CACHE_MS and concurrent checks share one probe, so however often the load
// balancer polls, the upstream sees at most one probe per CACHE_MS from this process.
//
// The shared Redis (REDIS_URL) is not a reason to take a process out of its load balancer: every
// process loses it at once, and each one still serves without it (docs/operating.md, When Redis
// is lost). Its loss degrades the process instead, as /health and gateway_redis_up say; only with
// READY_REQUIRES_REDIS does /ready answer 503 while it is lost. A Redis that answers, but in
// REDIS_SLOW_MS or more, is still shared: /health says it is slow, with its latency.
export interface ProbeResult {
  ok: boolean;
  reason: string;
}

/** What processes share (shared-state/redis.ts's SharedRedis), as readiness sees it. */
export interface SharedDependency {
  readonly healthy: boolean;
  /** Why it is not healthy. */
  readonly reason: string;
  /** READY_REQUIRES_REDIS. */
  readonly requiredForReady: boolean;
  /** Healthy, but answering in REDIS_SLOW_MS or more. */
  readonly slow: boolean;
  /** Milliseconds it takes to answer now. */
  readonly latencyMs: number;
  onHealthChange(listener: (healthy: boolean) => void): void;
}

export const PROBE_TIMEOUT_MS = 1_000;
export const CACHE_MS = 3_000;

export class Readiness {
  private draining = false;
  private last: { at: number; result: ProbeResult } | null = null;
  private probing: Promise<ProbeResult> | null = null;

  /** `upstream.probe` is UpstreamClient's: one unauthenticated GET within the timeout. */
  constructor(
    private readonly upstream: { probe(timeoutMs: number): Promise<ProbeResult> },
    /** The shared Redis (REDIS_URL), null without one. */
    readonly redis: SharedDependency | null = null,
  ) {}

  /** What this process now serves without: `['redis']` while the shared Redis is lost. */
  get degraded(): string[] {
    return this.redis && !this.redis.healthy ? ['redis'] : [];
  }

  /**
   * /health's body: `degraded` lists what the process serves without; a slow Redis adds
   * `redis: { status: 'slow', latencyMs }` (and status "degraded").
   */
  get health(): { status: string; degraded: string[]; redis?: { status: 'slow'; latencyMs: number } } {
    const degraded = this.degraded;
    const slow = this.redis?.slow ? { status: 'slow' as const, latencyMs: this.redis.latencyMs } : null;
    const status = degraded.length > 0 || slow ? 'degraded' : 'ok';
    return slow ? { status, degraded, redis: slow } : { status, degraded };
  }

  /** From the first shutdown signal on, /ready answers 503 whatever the upstream does. */
  startDraining(): void {
    this.draining = true;
  }

  async check(): Promise<ProbeResult> {
    if (this.draining) return { ok: false, reason: 'shutting down' };
    if (this.redis?.requiredForReady && !this.redis.healthy) return { ok: false, reason: this.redis.reason };
    if (this.last && Date.now() - this.last.at < CACHE_MS) return this.last.result;
    this.probing ??= this.upstream.probe(PROBE_TIMEOUT_MS).then((result) => {
      this.last = { at: Date.now(), result };
      this.probing = null;
      return result;
    });
    const result = await this.probing;
    return this.draining ? { ok: false, reason: 'shutting down' } : result;
  }
}
