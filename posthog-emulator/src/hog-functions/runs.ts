// What a hog function did: its logs (posthog/api/log_entries.py at 1661033, LogEntryMixin.logs)
// and its metrics and their totals (posthog/api/app_metrics2.py at 19194ef, AppMetricsMixin), as
// PostHog 2026 answers them. The seeded world's "now" is fixed, so metrics are reproducible.

import { formatTimestamp } from '../dialect.ts';
import { type ErrorTree, fieldError, hogValidationError } from './errors.ts';
import { requireHogFunction } from './routes.ts';
import type { HogFunction, HogFunctionLog } from '../model.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { relativeDateParse } from '../relative-date.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

const NOW = Date.parse('2026-11-25T00:00:00Z');
const DATETIME_FORMAT_ERROR =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
/** The CDP worker's metric names and their kinds (metric_name, metric_kind). */
const METRICS: [name: string, kind: string][] = [
  ['succeeded', 'success'],
  ['failed', 'failure'],
  ['filtered', 'other'],
];

/** LogEntryRequestSerializer.limit: an integer, 1..500, 50 when not given. */
function readLimit(text: string | null, errors: ErrorTree): number {
  if (text === null) return 50;
  if (!/^\s*-?\d+(\.0*)?\s*$/.test(text)) {
    errors.limit = [fieldError('A valid integer is required.')];
    return 50;
  }
  const n = Math.trunc(Number(text));
  if (n > 500) errors.limit = [fieldError('Ensure this value is less than or equal to 500.', 'max_value')];
  if (n < 1) errors.limit = [fieldError('Ensure this value is greater than or equal to 1.', 'min_value')];
  return n;
}

function readDatetime(name: string, text: string | null, errors: ErrorTree): number | null {
  if (text === null) return null;
  const iso = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d{1,6})?)?)?(Z|[+-]\d\d:?\d\d)?$/.test(text.trim());
  const millis = Date.parse(text.trim());
  if (!iso || Number.isNaN(millis)) {
    errors[name] = [fieldError(DATETIME_FORMAT_ERROR)];
    return null;
  }
  return millis * 1000;
}

// posthog/api/log_entries.py, LogEntryMixin.logs (as HogFunctionViewSet mixes it in)
export function hogFunctionLogs(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const q = ctx.url.query;
  const errors: ErrorTree = {};
  const limit = readLimit(q.get('limit'), errors);
  const after = readDatetime('after', q.get('after'), errors);
  const before = readDatetime('before', q.get('before'), errors);
  if (Object.keys(errors).length > 0) throw hogValidationError(errors);
  const levels = q
    .getAll('level')
    .flatMap((l) => l.split(','))
    .filter(Boolean)
    .map((l) => l.toUpperCase());
  const search = q.get('search')?.toLowerCase();
  const instanceId = q.get('instance_id');
  // ClickHouse: ORDER BY timestamp DESC LIMIT `limit`; then the default paginator pages those rows.
  const rows = ctx.store.hogLogs
    .filter((l: HogFunctionLog) => l.functionId === fn.id)
    .filter((l) => !instanceId || l.instanceId === instanceId)
    .filter((l) => after === null || l.timestampMicros > after)
    .filter((l) => before === null || l.timestampMicros < before)
    .filter((l) => levels.length === 0 || levels.includes(l.level))
    .filter((l) => !search || l.message.toLowerCase().includes(search))
    .sort((a, b) => b.timestampMicros - a.timestampMicros)
    .slice(0, limit);
  const page = limitOffsetPage(rows, ctx.url);
  return ok({
    ...page,
    results: page.results.map((l) => ({
      log_source_id: fn.id,
      instance_id: l.instanceId,
      timestamp: formatTimestamp(l.timestampMicros),
      level: l.level,
      message: l.message,
    })),
  });
}

const HOUR = 3_600_000;

/**
 * relative_date_parse_with_delta_mapping, as AppMetricsMixin calls it: an ISO date, else a relative
 * `-<n><h|d|w|m|q|y|M|s>[Start|End]`, else now (epoch ms). The CharField (trimmed) refuses a blank value.
 */
function relativeOrIso(text: string, attr: string): number {
  if (text.trim() === '')
    throw hogValidationError({ [attr]: [fieldError('This field may not be blank.', 'blank')] });
  return Math.floor(relativeDateParse(text.trim(), NOW * 1000) / 1000);
}

/** AppMetricsRequestSerializer's choices, checked as DRF does. */
function readParams(q: URLSearchParams) {
  const errors: ErrorTree = {};
  const interval = q.get('interval') ?? 'day';
  if (!['hour', 'day', 'week'].includes(interval))
    errors.interval = [fieldError(`"${interval}" is not a valid choice.`, 'invalid_choice')];
  const breakdown = q.get('breakdown_by') ?? 'kind';
  if (!['name', 'kind'].includes(breakdown))
    errors.breakdown_by = [fieldError(`"${breakdown}" is not a valid choice.`, 'invalid_choice')];
  if (Object.keys(errors).length > 0) throw hogValidationError(errors);
  const names = q.get('name')?.split(',');
  const kinds = q.get('kind')?.split(',');
  const metrics = METRICS.filter(([n, k]) => (!names || names.includes(n)) && (!kinds || kinds.includes(k)));
  return { interval, breakdown, metrics };
}

/** The seeded count of one metric in the hour starting at `hour` (ms). */
function hourly(fn: HogFunction, metric: number, hour: number): number {
  const seed = fn.id.charCodeAt(fn.id.length - 1);
  const h = Math.floor(hour / HOUR);
  if (hour >= NOW || h % 24 < 8) return 0;
  return ((seed + h * (metric + 3)) % 5) * (metric === 0 ? 3 : 1);
}

/** Start of the bucket of `at`: the hour, the day, or the Monday of the week (UTC). */
function bucketStart(at: number, interval: string): number {
  if (interval === 'hour') return Math.floor(at / HOUR) * HOUR;
  const day = Math.floor(at / (24 * HOUR)) * 24 * HOUR;
  if (interval === 'day') return day;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * 24 * HOUR;
}

const label = (at: number, interval: string) =>
  new Date(at).toISOString().slice(0, interval === 'hour' ? 16 : 10);

function sum(fn: HogFunction, metric: number, from: number, to: number): number {
  let total = 0;
  for (let h = Math.floor(from / HOUR) * HOUR; h <= to; h += HOUR)
    if (h >= from) total += hourly(fn, metric, h);
  return total;
}

/** The series per breakdown value (name or kind), each value the metric summed over its bucket. */
function seriesOf(
  fn: HogFunction,
  breakdown: string,
  metrics: typeof METRICS,
  starts: number[],
  step: number,
  to: number,
) {
  return metrics.map(([name, kind]) => {
    const metric = METRICS.findIndex(([n]) => n === name);
    return {
      name: breakdown === 'name' ? name : kind,
      values: starts.map((s) => sum(fn, metric, s, Math.min(s + step - 1, to))),
    };
  });
}

// posthog/api/app_metrics2.py, AppMetricsMixin.metrics (fetch_app_metrics_trends)
export function hogFunctionMetrics(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const q = ctx.url.query;
  const { interval, breakdown, metrics } = readParams(q);
  const from = relativeOrIso(q.get('after') ?? '-7d', 'after');
  const to = relativeOrIso(q.get('before') ?? '-0d', 'before');
  const step = interval === 'hour' ? HOUR : interval === 'day' ? 24 * HOUR : 7 * 24 * HOUR;
  const starts: number[] = [];
  for (let t = bucketStart(from, interval); t <= to && starts.length < 10_000; t += step) starts.push(t);
  const labels = starts.map((s) => label(s, interval));
  // One series per breakdown value the window has rows for.
  const series = seriesOf(fn, breakdown, metrics, starts, step, to).filter((s) =>
    s.values.some((v) => v > 0),
  );
  return ok({ labels, series });
}

// posthog/api/app_metrics2.py, AppMetricsMixin.metrics_totals (fetch_app_metric_totals; `after` defaults to -7d)
export function hogFunctionMetricsTotals(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const q = ctx.url.query;
  const { breakdown, metrics } = readParams(q);
  const from = relativeOrIso(q.get('after') ?? '-7d', 'after');
  const to = q.get('before') === null ? NOW : relativeOrIso(q.get('before')!, 'before');
  const totals: Record<string, number> = {};
  for (const [name, kind] of metrics) {
    const n = sum(
      fn,
      METRICS.findIndex(([m]) => m === name),
      from,
      to,
    );
    if (n > 0) totals[breakdown === 'name' ? name : kind] = n;
  }
  return ok({ totals });
}
