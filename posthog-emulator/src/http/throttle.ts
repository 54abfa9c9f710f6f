// PostHog's per-key rate limit (480/minute in production; off here unless asked for): a sliding
// window of request times per key, answering 429 with an integer Retry-After when full.
import { throttled } from './api-error.ts';

const WINDOW_MS = 60_000;

export class Throttle {
  private readonly seen = new Map<string, number[]>();

  constructor(public perMinute: number | null) {}

  /** Records one request for `key`, or throws the 429 the upstream answers. */
  check(key: string, now = Date.now()): void {
    if (this.perMinute === null) return;
    const times = (this.seen.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length >= this.perMinute) {
      this.seen.set(key, times);
      throw throttled(Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000)));
    }
    times.push(now);
    this.seen.set(key, times);
  }

  reset(): void {
    this.seen.clear();
  }
}
