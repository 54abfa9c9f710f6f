// What /metrics shows of the keys' PostHog budget and their pollers' pace, over all keys (no key
// is ever a label): each window's limit, the reserve no call spends (upstream/keys/priorities.ts),
// and the intervals pollers waited, by class (live/poll-pace.ts).
import { Gauge, type Registry } from 'prom-client';
import type { PollerClass } from '../live/poll-pace.ts';
import type { BudgetLimits } from '../upstream/keys/budget.ts';
import { SeriesHistogram } from './series.ts';

/** Poll intervals (seconds): the settings' seconds, up to eight times slower. */
const INTERVAL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** Registers the budget's gauges; what it returns hears each poller's interval. */
export function registerBudgetMetrics(
  policy: Readonly<BudgetLimits>,
  registry: Registry,
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
