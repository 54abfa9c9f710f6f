// What a hog function did and would do: its logs (newest first), its metrics and their totals,
// and a test invocation (`:id` may be `new`), as PostHog 2026 answers them.
import { validationError } from './api-error.ts';
import { formatTimestamp } from './dialect.ts';
import { invalidInvocation, requireHogFunction } from './hog-function-routes.ts';
import type { HogFunctionLog } from './model.ts';
import { positiveInt } from './pagination.ts';
import { ok, type Reply, type RouteContext } from './reply.ts';

const LOG_LIMIT = { default: 50, max: 500 };
const METRIC_NAMES = ['succeeded', 'failed', 'filtered'];

function parseTimestamp(text: string | null, attr: string): number | null {
  if (text === null) return null;
  const millis = Date.parse(text);
  if (Number.isNaN(millis)) throw validationError(attr, 'invalid', 'Datetime has wrong format.');
  return millis * 1000;
}

export function hogFunctionLogs(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const q = ctx.url.query;
  const limitText = q.get('limit');
  const limit = limitText === null ? LOG_LIMIT.default : positiveInt(limitText, true);
  if (limit === undefined || limit > LOG_LIMIT.max)
    throw validationError(
      'limit',
      'max_value',
      `Ensure this value is less than or equal to ${LOG_LIMIT.max}.`,
    );
  const after = parseTimestamp(q.get('after'), 'after');
  const before = parseTimestamp(q.get('before'), 'before');
  const levels = q
    .get('level')
    ?.split(',')
    .map((l) => l.toUpperCase());
  const search = q.get('search')?.toLowerCase();
  const matching = ctx.store.hogLogs
    .filter((l: HogFunctionLog) => l.functionId === fn.id)
    .filter((l) => after === null || l.timestampMicros > after)
    .filter((l) => before === null || l.timestampMicros < before)
    .filter((l) => !levels?.length || levels.includes(l.level))
    .filter((l) => !search || l.message.toLowerCase().includes(search))
    .sort((a, b) => b.timestampMicros - a.timestampMicros);
  const results = matching.slice(0, limit);
  const last = results[results.length - 1];
  const next =
    matching.length > limit && last
      ? `${ctx.url.origin}${ctx.url.path}?${new URLSearchParams({ ...Object.fromEntries(q), before: formatTimestamp(last.timestampMicros) })}`
      : null;
  return ok({
    count: matching.length,
    next,
    previous: null,
    results: results.map((l) => ({
      log_source_id: fn.id,
      instance_id: l.instanceId,
      timestamp: formatTimestamp(l.timestampMicros),
      level: l.level,
      message: l.message,
    })),
  });
}

const INTERVALS: Record<string, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

/** `-7d`, `-24h`, `-2w` or an ISO date-time, as epoch ms. */
function relativeOrIso(text: string, now: number, attr: string): number {
  const relative = /^-(\d+)([hdw])$/.exec(text);
  if (relative)
    return now - Number(relative[1]) * INTERVALS[{ h: 'hour', d: 'day', w: 'week' }[relative[2]!]!]!;
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw validationError(attr, 'invalid', 'Invalid date.');
  return at;
}

export function hogFunctionMetrics(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const q = ctx.url.query;
  const interval = q.get('interval') ?? 'day';
  if (!(interval in INTERVALS))
    throw validationError('interval', 'invalid_choice', `"${interval}" is not a valid choice.`);
  const now = Date.parse('2026-11-25T00:00:00Z');
  const from = relativeOrIso(q.get('after') ?? '-7d', now, 'after');
  const to = q.get('before') === null ? now : relativeOrIso(q.get('before')!, now, 'before');
  const step = INTERVALS[interval]!;
  const labels: string[] = [];
  for (let t = Math.floor(from / step) * step; t <= to && labels.length < 1_000; t += step)
    labels.push(new Date(t).toISOString().slice(0, interval === 'hour' ? 13 : 10));
  const seed = fn.id.charCodeAt(fn.id.length - 1);
  const series = METRIC_NAMES.map((name, k) => ({
    name,
    values: labels.map((_, i) => ((seed + i * (k + 3)) % 17) * (k === 0 ? 10 : 1)),
  }));
  return ok({ labels, series });
}

export function hogFunctionMetricsTotals(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const seed = fn.id.charCodeAt(fn.id.length - 1);
  return ok({ totals: { succeeded: seed * 10, failed: seed % 7, filtered: seed % 13 } });
}

/** POST :id/invocations/: a test run with mocked async calls; errors in `globals` fail it. */
export function invokeHogFunction(ctx: RouteContext): Reply {
  if (ctx.params.id !== 'new') requireHogFunction(ctx);
  const data = ctx.body.data;
  if (data.globals === undefined) throw invalidInvocation({ globals: ['This field is required.'] });
  if (
    data.configuration !== undefined &&
    (typeof data.configuration !== 'object' || data.configuration === null)
  )
    throw invalidInvocation({ configuration: ['Expected a dictionary of items.'] });
  const event = (data.globals as { event?: { event?: unknown } } | null)?.event;
  if (event === undefined) {
    return ok({ result: null, status: 'skipped', errors: [], logs: [] });
  }
  const at = formatTimestamp(Date.parse('2026-11-25T00:00:00Z') * 1000);
  if (typeof event?.event !== 'string')
    return ok({
      result: null,
      status: 'error',
      errors: ['globals.event.event must be a string'],
      logs: [{ level: 'error', timestamp: at, message: 'Error executing function: invalid event' }],
    });
  return ok({
    result: { event: event.event },
    status: 'success',
    errors: [],
    logs: [
      {
        level: 'debug',
        timestamp: at,
        message: `Executing function (mock_async_functions: ${data.mock_async_functions !== false})`,
      },
      { level: 'info', timestamp: at, message: `Function completed for ${event.event}` },
    ],
  });
}
