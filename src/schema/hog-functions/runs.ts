// What a hog function did: its logs (newest first, paged forward by `first`/`after`) and its
// metrics over time.

import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { badUserInput } from '../../errors/codes.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { builder } from '../builder.ts';
import { checkPageSize, DEFAULT_PAGE_SIZE, Edge, nameOf, PageInfo } from '../connections/connection.ts';
import { decodeCursor, invalidCursor } from '../connections/cursors.ts';
import { priced } from '../cost/price.ts';
import { HogFunctionRef } from '../refs.ts';
import { needsScopes } from '../scopes.ts';

export const HogFunctionLogEntryRef = builder.objectRef<HogFunctionLogRecord>('HogFunctionLogEntry');
HogFunctionLogEntryRef.implement({
  description: 'One log line of a hog function’s run.',
  fields: (t) => ({
    timestamp: t.field({
      type: 'DateTime',
      description: 'When the run logged the line (ISO 8601); lines are ordered by it, newest first.',
      resolve: (l) => l.timestamp,
    }),
    level: t.exposeString('level', {
      description: 'The line’s level: DEBUG, INFO, WARN or ERROR; typed: `levelValue`.',
    }),
    message: t.exposeString('message', {
      description:
        'The logged text, as PostHog stores it: a print() of the code, or PostHog’s own note about the run.',
    }),
    instanceId: t.string({
      nullable: true,
      description:
        'The id of the run (invocation) that logged the line: lines with one id are one run. Null when not sent.',
      resolve: (l) => l.instanceId,
    }),
  }),
});

interface LogConnection {
  edges: Edge<HogFunctionLogRecord>[];
  pageInfo: PageInfo<HogFunctionLogRecord>;
  totalCount: number | null;
}

const HogFunctionLogEdgeRef = builder.objectRef<Edge<HogFunctionLogRecord>>('HogFunctionLogEdge');
HogFunctionLogEdgeRef.implement({
  description: 'A log line and its cursor.',
  fields: (t) => ({
    cursor: t.string({
      description:
        'Pass as logs’ `after` for the lines older than this one (valid for the same level and search).',
      resolve: (e) => e.cursor,
    }),
    node: t.field({
      type: HogFunctionLogEntryRef,
      description: 'One log line: when, at what level, and what the run logged.',
      resolve: (e) => e.node,
    }),
  }),
});

const HogFunctionLogConnectionRef = builder.objectRef<LogConnection>('HogFunctionLogConnection');
HogFunctionLogConnectionRef.implement({
  description: 'A hog function’s log lines, newest first.',
  fields: (t) => ({
    edges: t.field({
      type: [HogFunctionLogEdgeRef],
      description: 'This page’s log lines, newest first, each with its cursor.',
      resolve: (c) => c.edges,
    }),
    pageInfo: t.field({
      type: builder.pageInfoRef(),
      description:
        'Whether older lines follow (`hasNextPage`) and `endCursor` to read them; logs page forward only.',
      resolve: (c) => c.pageInfo as never,
    }),
    totalCount: t.int({
      nullable: true,
      description:
        'How many log lines match, when this page is the whole list (no `after`, no next page); otherwise null: PostHog’s `count` counts only the rows it fetched for the page (posthog/api/log_entries.py reads `limit` twice), so it says nothing of the whole log.',
      resolve: (c) => c.totalCount,
    }),
  }),
});

const HogFunctionMetricsSeriesRef = builder.objectRef<{ name: string; values: number[] }>(
  'HogFunctionMetricsSeries',
);
HogFunctionMetricsSeriesRef.implement({
  description: 'One metric over the labels’ intervals.',
  fields: (t) => ({
    name: t.exposeString('name', {
      description:
        'What the series counts, as PostHog names it: one series per metric kind it found, e.g. success or failure (in no set order).',
    }),
    values: t.floatList({
      description: 'The metric’s count in each interval, one value per entry of `labels`, in the same order.',
      resolve: (s) => s.values,
    }),
  }),
});

const HogFunctionMetricsRef = builder.objectRef<{
  labels: string[];
  series: { name: string; values: number[] }[];
}>('HogFunctionMetrics');
HogFunctionMetricsRef.implement({
  description: 'A hog function’s metrics over time.',
  fields: (t) => ({
    labels: t.stringList({
      description:
        'The start of each interval, oldest first, as PostHog labels it: "2026-11-20" for a day or week, "2026-11-20T14:00" for an hour.',
      resolve: (m) => m.labels,
    }),
    series: t.field({
      type: [HogFunctionMetricsSeriesRef],
      description:
        'The counts per interval, one series per metric kind the function recorded in the range; empty when it recorded none.',
      resolve: (m) => m.series,
    }),
  }),
});

const LEVELS = new Set(['DEBUG', 'INFO', 'WARN', 'ERROR']);

async function logConnection(
  fn: HogFunctionRecord,
  args: {
    first?: number | null;
    after?: string | null;
    level?: readonly string[] | null;
    search?: string | null;
  },
  ctx: import('../../context.ts').GatewayContext,
): Promise<LogConnection> {
  checkPageSize(args);
  const levels = args.level?.map((l) => l.toUpperCase()) ?? null;
  for (const level of levels ?? [])
    if (!LEVELS.has(level))
      throw badUserInput(`\`level\` must be DEBUG, INFO, WARN or ERROR; got ${JSON.stringify(level)}.`, {
        field: 'level',
      });
  const list = () =>
    mapMaybePromise(ctx.loaders.currentProject.cursorId(fn.projectId), (id) =>
      JSON.stringify(['hog-logs', id, fn.uuid, levels, args.search ?? null]),
    );
  const { named, ready } = nameOf(list);
  let before: string | null = null;
  if (args.after != null) {
    await ready;
    const [timestamp] = decodeCursor(args.after, named.name, 'after', 1);
    if (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp))) throw invalidCursor('after');
    before = timestamp;
  }
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  const page = await ctx.loaders.hogFunctions.logs({
    projectId: fn.projectId,
    uuid: fn.uuid,
    limit: first + 1,
    before,
    levels,
    search: args.search ?? null,
  });
  await ready;
  const shown = page.results.slice(0, first);
  const edges = shown.map((line) => new Edge(line, named, [line.timestamp]));
  return {
    edges,
    pageInfo: new PageInfo(edges, args.after != null, page.results.length > first),
    // PostHog's count is of the rows fetched (at most `first` + 1): the total only when all fit.
    totalCount: args.after == null && page.results.length <= first ? shown.length : null,
  };
}

builder.objectFields(HogFunctionRef, (t) => ({
  logs: t.field({
    type: HogFunctionLogConnectionRef,
    nullable: true,
    description: needsScopes(
      'The function’s log lines, newest first (GET …/hog_functions/:id/logs/), paged forward by first/after (at most 100 a page). level filters by level names (INFO, WARN, ERROR, DEBUG).',
      'hog_function:read',
    ),
    args: {
      first: t.arg.int({ description: 'How many lines (default 20, at most 100).' }),
      after: t.arg.string({ description: 'A line’s cursor: read the lines older than it.' }),
      level: t.arg.stringList({ description: 'Only lines of these levels, e.g. ["WARN", "ERROR"].' }),
      search: t.arg.string({ description: 'Only lines containing this text.' }),
    },
    extensions: priced({ calls: 1 }),
    resolve: (fn, args, ctx) => logConnection(fn, args, ctx),
  }),
  metrics: t.field({
    type: HogFunctionMetricsRef,
    nullable: true,
    description: needsScopes(
      'The function’s run counts over time (GET …/hog_functions/:id/metrics/), one series per metric kind. after/before: an ISO date-time or a relative time such as -7d; interval: hour, day or week.',
      'hog_function:read',
    ),
    args: {
      after: t.arg.string({ description: 'Start of the range: an ISO date-time or e.g. -7d (the default).' }),
      before: t.arg.string({ description: 'End of the range: an ISO date-time or e.g. -1d; default now.' }),
      interval: t.arg.string({ description: 'The width of each interval: hour, day (the default) or week.' }),
    },
    extensions: priced({ calls: 1 }),
    resolve: (fn, args, ctx) => {
      if (args.interval != null && !['hour', 'day', 'week'].includes(args.interval))
        throw badUserInput('`interval` must be hour, day or week.', { field: 'interval' });
      return ctx.loaders.hogFunctions.metrics({
        projectId: fn.projectId,
        uuid: fn.uuid,
        after: args.after ?? null,
        before: args.before ?? null,
        interval: args.interval ?? null,
      });
    },
  }),
}));
