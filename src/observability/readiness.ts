// GET /ready: may a load balancer send traffic here? Not once shutdown has begun, not while the
// shared Redis is lost (REDIS_URL), and not while the upstream does not answer a cheap unauthenticated probe within PROBE_TIMEOUT_MS. A probe's
// result is kept for CACHE_MS and concurrent checks share one probe, so however often the load
// balancer polls, the upstream sees at most one probe per CACHE_MS from this process.
export interface ProbeResult {
  ok: boolean;
  reason: string;
}

export const PROBE_TIMEOUT_MS = 1_000;
export const CACHE_MS = 3_000;

export class Readiness {
  private draining = false;
  private last: { at: number; result: ProbeResult } | null = null;
  private probing: Promise<ProbeResult> | null = null;

  /**
   * `upstream.probe` is UpstreamClient's: one unauthenticated GET within the timeout. `redis`:
   * what processes share (REDIS_URL); while it is lost the process is not ready, though it
   * still answers queries (docs/operating.md, Running more than one).
   */
  constructor(
    private readonly upstream: { probe(timeoutMs: number): Promise<ProbeResult> },
    private readonly redis: { healthy: boolean; reason: string } | null = null,
  ) {}

  /** From the first shutdown signal on, /ready answers 503 whatever the upstream does. */
  startDraining(): void {
    this.draining = true;
  }

  async check(): Promise<ProbeResult> {
    if (this.draining) return { ok: false, reason: 'shutting down' };
    if (this.redis && !this.redis.healthy) return { ok: false, reason: this.redis.reason };
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
