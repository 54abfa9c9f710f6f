// Upstream lists → Relay connections.
//
// offsetConnection: the upstream's limit/offset list as a full Relay connection. `after` and
// `before` bound a window of offsets, `first` keeps its head and `last` its tail; the window is
// then read in one upstream call (two when `last` is used without `before`, since the end of
// the list is known only from the upstream's `count`).
//
// cursorConnection: the upstream's cursor list, forward only. An edge's cursor remembers the
// upstream page it came from and the entry itself, so `after` any edge resumes right after it,
// even mid-page; `first` larger than what is left of a page continues into the next pages.
import type { GatewayContext } from '../context.ts';
import { badUserInput } from '../upstream/errors.ts';
import type { CursorPage, OffsetPage } from '../upstream/types.ts';
import type { CursorPayload } from './cursors.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** How many upstream pages one cursor connection may read to fill `first` (a loop guard). */
const MAX_UPSTREAM_PAGES = 10;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount?: number;
}

/** Checks `first`/`last` before any upstream call. */
export function checkPageSize(args: ConnectionArgs): void {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value != null && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw badUserInput(`\`${name}\` must be between 0 and ${MAX_PAGE_SIZE}; got ${value}.`, {
        field: name,
      });
    }
  }
}

function pageInfo<T>(edges: Connection<T>['edges'], hasPreviousPage: boolean, hasNextPage: boolean) {
  return {
    hasNextPage,
    hasPreviousPage,
    startCursor: edges[0]?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  };
}

interface OffsetCursor extends CursorPayload {
  o: number;
}

export async function offsetConnection<T>(
  ctx: GatewayContext,
  kind: string,
  args: ConnectionArgs,
  fetchPage: (limit: number, offset: number) => Promise<OffsetPage<T>>,
): Promise<Connection<T> & { totalCount: number }> {
  checkPageSize(args);
  const decode = (cursor: string, argument: string) =>
    ctx.cursors.decode<OffsetCursor>(cursor, kind, argument).o;
  let start = args.after != null ? decode(args.after, 'after') + 1 : 0;
  let end = args.before != null ? decode(args.before, 'before') : Number.POSITIVE_INFINITY;
  const first = args.first ?? (args.last == null ? DEFAULT_PAGE_SIZE : null);
  if (first != null) end = Math.min(end, start + first);

  let page: OffsetPage<T> | null = null;
  if (args.last != null) {
    if (end === Number.POSITIVE_INFINITY) {
      // The end is the upstream's count: read the likeliest window, and again if it was not it.
      page = await fetchPage(Math.max(1, args.last), start);
      end = Math.max(start, page.count);
      if (end - args.last > start) page = null;
    }
    start = Math.max(start, end - args.last);
  }
  const size = Math.max(0, end - start);
  page ??= await fetchPage(Math.max(1, size), start);
  const results = page.results.slice(0, size);
  const edges = results.map((node, i) => ({
    cursor: ctx.cursors.encode({ k: kind, o: start + i } as OffsetCursor),
    node,
  }));
  return {
    edges,
    pageInfo: pageInfo(edges, start > 0, start + results.length < page.count),
    totalCount: page.count,
  };
}

interface ListCursor extends CursorPayload {
  /** Which list (project and filters) the cursor belongs to. */
  l: string;
  /** The upstream cursor of the page the entry came from; null for the first page. */
  u: string | null;
  /** The entry's index in that page, and its id (found again if the page shifted). */
  i: number;
  e: string;
}

export async function cursorConnection<T>(
  ctx: GatewayContext,
  kind: string,
  listKey: string,
  args: ConnectionArgs,
  idOf: (item: T) => string,
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
): Promise<Connection<T>> {
  if (args.last != null || args.before != null) {
    throw badUserInput('This list pages forward only: use `first` and `after`.', {
      field: args.last != null ? 'last' : 'before',
    });
  }
  checkPageSize(args);
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  let upstreamCursor: string | null = null;
  let index = 0;
  let page: CursorPage<T>;
  if (args.after != null) {
    const after = ctx.cursors.decode<ListCursor>(args.after, kind, 'after');
    if (after.l !== listKey) {
      throw badUserInput('`after` is a cursor of another list (other project or filters).', {
        field: 'after',
      });
    }
    upstreamCursor = after.u;
    page = await fetchPage(upstreamCursor);
    // Found by id first: on the first page, newer entries may have pushed it down since.
    const found = page.results.findIndex((item) => idOf(item) === after.e);
    index = found >= 0 ? found + 1 : after.i + 1;
  } else {
    page = await fetchPage(null);
  }

  const edges: Connection<T>['edges'] = [];
  for (let pages = 1; ; pages++) {
    while (edges.length < first && index < page.results.length) {
      const node = page.results[index]!;
      const cursor: ListCursor = { k: kind, l: listKey, u: upstreamCursor, i: index, e: idOf(node) };
      edges.push({ cursor: ctx.cursors.encode(cursor), node });
      index++;
    }
    const next = page.nextCursor;
    if (edges.length >= first || !next || next === upstreamCursor || pages >= MAX_UPSTREAM_PAGES) break;
    upstreamCursor = next;
    index = 0;
    page = await fetchPage(upstreamCursor);
  }
  const hasNextPage = index < page.results.length || page.nextCursor !== null;
  return { edges, pageInfo: pageInfo(edges, args.after != null, hasNextPage) };
}
