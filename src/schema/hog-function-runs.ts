// What a hog function did: its logs (newest first, paged forward by `first`/`after`) and its
// metrics over time.
import { badUserInput } from '../errors/codes.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { checkPageSize, DEFAULT_PAGE_SIZE, Edge, nameOf, PageInfo } from './connections/connection.ts';
import { decodeCursor, invalidCursor } from './connections/cursors.ts';
import { HogFunctionRef } from './refs.ts';

export const HogFunctionLogEntryRef = builder.objectRef<HogFunctionLogRecord>('HogFunctionLogEntry');
HogFunctionLogEntryRef.implement({
  description: 'One log line of a hog function’s run.',
  fields: (t) => ({
    timestamp: t.field({ type: 'DateTime', description: 'When it was logged.', resolve: (l) => l.timestamp }),
    level: t.exposeString('level', { description: 'DEBUG, INFO, WARN or ERROR.' }),
    message: t.exposeString('message', { description: 'The line.' }),
    instanceId: t.string({
      nullable: true,
      description: 'The invocation it belongs to.',
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
    cursor: t.string({ description: 'Pass as `after` for the older lines.', resolve: (e) => e.cursor }),
    node: t.field({ type: HogFunctionLogEntryRef, description: 'The line.', resolve: (e) => e.node }),
  }),
});

const HogFunctionLogConnectionRef = builder.objectRef<LogConnection>('HogFunctionLogConnection');
HogFunctionLogConnectionRef.implement({
  description: 'A hog function’s log lines, newest first.',
  fields: (t) => ({
    edges: t.field({ type: [HogFunctionLogEdgeRef], description: 'The lines.', resolve: (c) => c.edges }),
    pageInfo: t.field({
      type: builder.pageInfoRef(),
      description: 'Where this page is.',
      resolve: (c) => c.pageInfo as never,
    }),
    totalCount: t.int({ nullable: true, description: 'How many lines match.', resolve: (c) => c.totalCount }),
  }),
});

const HogFunctionMetricsSeriesRef = builder.objectRef<{ name: string; values: number[] }>(
  'HogFunctionMetricsSeries',
);
HogFunctionMetricsSeriesRef.implement({
  description: 'One metric over the labels’ intervals.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'succeeded, failed, filtered, …' }),
    values: t.floatList({ description: 'One value per label.', resolve: (s) => s.values }),
  }),
});

const HogFunctionMetricsRef = builder.objectRef<{
  labels: string[];
  series: { name: string; values: number[] }[];
}>('HogFunctionMetrics');
HogFunctionMetricsRef.implement({
  description: 'A hog function’s metrics over time.',
  fields: (t) => ({
    labels: t.stringList({ description: 'The intervals.', resolve: (m) => m.labels }),
    series: t.field({
      type: [HogFunctionMetricsSeriesRef],
      description: 'The metrics.',
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
  ctx: import('../context.ts').GatewayContext,
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
    const [timestamp] = decodeCursor(args.after, named.name, 'after');
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
    totalCount: page.count,
  };
}

builder.objectFields(HogFunctionRef, (t) => ({
  logs: t.field({
    type: HogFunctionLogConnectionRef,
    nullable: true,
    description:
      'GET …/hog_functions/:id/logs/, newest first. level filters by level names (INFO, WARN, ERROR, DEBUG).',
    args: {
      first: t.arg.int({ description: 'How many lines (at most 100).' }),
      after: t.arg.string({ description: 'A cursor: the lines older than it.' }),
      level: t.arg.stringList({ description: 'Only these levels.' }),
      search: t.arg.string({ description: 'Only lines containing this text.' }),
    },
    resolve: (fn, args, ctx) => logConnection(fn, args, ctx),
  }),
  metrics: t.field({
    type: HogFunctionMetricsRef,
    nullable: true,
    description:
      'GET …/hog_functions/:id/metrics/. after/before: an ISO date-time or a relative time such as -7d; interval: hour, day or week.',
    args: {
      after: t.arg.string({ description: 'From (default -7d).' }),
      before: t.arg.string({ description: 'Until (default now).' }),
      interval: t.arg.string({ description: 'hour, day or week.' }),
    },
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
