// How long a key's pollers (the activity poller, a `@live` query's re-runs) wait between rounds:
// their setting, times the slowdown the key's budget asks for now (upstream/keys/priorities.ts).
// The slowdown is read from the budget's counts (Redis's when REDIS_URL is set), so every process
// paces a key's pollers alike, and pollers slow down before any interactive call is refused.
import type { KeyHash } from '../core/caller-key.ts';
import type { UpstreamClient } from '../upstream/client.ts';

/** Which poller: the class `/metrics` reports their intervals by. */
export type PollerClass = 'activity' | 'destination_health' | 'live_query';

export class PollPace {
  /** Told of each interval chosen (metrics); never keyed. */
  onPaced: ((kind: PollerClass, ms: number) => void) | null = null;

  constructor(private readonly client: UpstreamClient) {}

  /** The wait before `key`'s next round of `kind`, whose setting is `settingMs`. */
  async intervalMs(key: KeyHash, kind: PollerClass, settingMs: number): Promise<number> {
    // The budget unread (Redis failing): the setting, as without a budget.
    const slowdown = await this.client.pollerSlowdown(key).catch(() => 1);
    const ms = settingMs * slowdown;
    this.onPaced?.(kind, ms);
    return ms;
  }
}
