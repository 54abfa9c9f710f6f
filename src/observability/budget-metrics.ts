// What /metrics shows of the keys' PostHog budget and their pollers' pace, over all keys (no key
// is ever a label): each window's limit, the reserve no call spends (upstream/keys/priorities.ts),
// what the key nearest its limit has left, by class, and the intervals pollers waited, by class
// (live/poll-pace.ts).
import { Gauge, type Registry } from 'prom-client';
import type { PollerClass } from '../live/poll-pace.ts';
import type { BudgetLimits } from '../upstream/keys/budget.ts';
import type { FewestLeft } from '../upstream/keys/budget-left.ts';
import { usableLimits } from '../upstream/keys/priorities.ts';
import { SeriesHistogram } from './series.ts';

/** Poll intervals (seconds): the settings' seconds, up to eight times slower. */
const INTERVAL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * Registers the budget's gauges; what it returns hears each poller's interval. `fewestLeft`:
 * per window, the fewest calls any key had left as last read (null: no budget).
 */
export function registerBudgetMetrics(
  policy: Readonly<BudgetLimits>,
  registry: Registry,
  fewestLeft: () => FewestLeft | null = () => null,
): (kind: PollerClass, ms: number) => void {
  const registers = [registry];
  new Gauge({
    name: 'gateway_upstream_budget_limit',
    help: 'Upstream calls per key allowed in each window (UPSTREAM_BUDGET_PER_MINUTE, _PER_HOUR); 0: no limit.',
    labelNames: ['window'],
    registers,
    aggregator: 'first',
    collect(this: Gauge) {
      this.set({ window: 'minute' }, policy.perMinute);
      this.set({ window: 'hour' }, policy.perHour);
    },
  });
  new Gauge({
    name: 'gateway_upstream_budget_reserve_ratio',
    help: 'Part of each window no call spends, left for the key owner (UPSTREAM_BUDGET_RESERVE_PERCENT / 100).',
    registers,
    aggregator: 'first',
    collect(this: Gauge) {
      this.set((policy.reservePercent ?? 0) / 100);
    },
  });
  registerFewestLeft(policy, registers, fewestLeft);
  const intervals = new SeriesHistogram(
    'gateway_live_poll_interval_seconds',
    'The waits pollers chose between rounds, by class (activity, destination_health, live_query), over all keys: longer as a budget tightens.',
    INTERVAL_BUCKETS,
    registry,
  );
  const labels = {
    activity: { class: 'activity' },
    destination_health: { class: 'destination_health' },
    live_query: { class: 'live_query' },
  };
  return (kind, ms) => intervals.observe(kind, () => labels[kind], ms / 1000);
}

/**
 * gateway_upstream_budget_remaining_fewest{window, class}: the calls the key nearest its limit
 * may still make, for each class (interactive: the limit less the reserve; poller: less twice the
 * reserve), as last read among keys read within the window; the class's whole part when no key
 * was. A window set to 0 has none.
 */
function registerFewestLeft(
  policy: Readonly<BudgetLimits>,
  registers: Registry[],
  fewestLeft: () => FewestLeft | null,
): void {
  const percent = policy.reservePercent ?? 0;
  const interactive = usableLimits(policy, percent, 'interactive');
  const poller = usableLimits(policy, percent, 'poller');
  const windows = [
    ['minute', interactive.perMinute, poller.perMinute],
    ['hour', interactive.perHour, poller.perHour],
  ] as const;
  new Gauge({
    name: 'gateway_upstream_budget_remaining_fewest',
    help: 'Upstream calls the key nearest its limit may still make in each window, by class (interactive, poller), as last read; no key is named.',
    labelNames: ['window', 'class'],
    registers,
    aggregator: 'min',
    collect(this: Gauge) {
      const fewest = fewestLeft();
      if (!fewest) return;
      for (const [window, usable, pollers] of windows) {
        if (usable === 0) continue;
        // What interactive calls have left; pollers stop short of it by the reserve once more.
        const left = fewest[window] ?? usable;
        this.set({ window, class: 'interactive' }, left);
        this.set({ window, class: 'poller' }, Math.max(0, left - (usable - pollers)));
      }
    },
  });
}
