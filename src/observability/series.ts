// A counter and a histogram for the metrics observed on every operation and upstream attempt.
// prom-client's own hash a label object on every observation; these look a series up by a key
// the caller builds (its label values joined) and make the label object once per series, so an
// observation costs a map lookup (docs/performance.md). Both register in a prom-client Registry
// as metrics of their own, so /metrics, AggregatorRegistry and the text format work as for any
// other.
import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface MetricValue {
  labels: Labels;
  value: number;
  metricName?: string;
}

abstract class SeriesMetric<S> {
  readonly aggregator = 'sum';
  protected readonly series = new Map<string, S>();
  abstract readonly type: string;

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected abstract values(): MetricValue[];

  /** What prom-client's Registry reads of a metric. */
  async get() {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.values(),
    };
  }

  reset(): void {
    this.series.clear();
  }
}

interface CounterSeries {
  labels: Labels;
  value: number;
}

export class SeriesCounter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter';

  /** Adds `value` to the series `key`; `labels` makes its labels the first time only. */
  inc(key: string, labels: () => Labels, value = 1): void {
    let series = this.series.get(key);
    if (!series) {
      series = { labels: labels(), value: 0 };
      this.series.set(key, series);
    }
    series.value += value;
  }

  protected values(): MetricValue[] {
    return [...this.series.values()].map(({ labels, value }) => ({ labels, value }));
  }
}

interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    super(name, help, registry);
  }

  observe(key: string, labels: () => Labels, value: number): void {
    let series = this.series.get(key);
    if (!series) {
      series = { labels: labels(), counts: new Array(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.buckets.length && value > this.buckets[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += value;
    series.count++;
  }

  protected values(): MetricValue[] {
    const values: MetricValue[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulative += counts[i]!;
        const le = i < this.buckets.length ? String(this.buckets[i]) : '+Inf';
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return values;
  }
}
