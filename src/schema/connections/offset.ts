// The upstream's limit/offset list as a full Relay connection. `after` and `before` bound a window
// of offsets, `first` keeps its head and `last` its tail; the window is then read in one upstream
// call (two when `last` is used without `before`, since the end of the list is known only from
// the upstream's `count`). A cursor is the list's name and an offset.
import type { OffsetPage } from '../../upstream/wire/pages.ts';
import {
  type Connection,
  type ConnectionArgs,
  checkPageSize,
  DEFAULT_PAGE_SIZE,
  Edge,
  type ListName,
  nameOf,
  PageInfo,
} from './connection.ts';
import { decodeCursor, indexField } from './cursors.ts';

async function offsetOf(list: ListName, cursor: string, argument: string): Promise<number> {
  return indexField(decodeCursor(cursor, await list(), argument, 1)[0], argument);
}

export async function offsetConnection<T>(
  list: ListName,
  args: ConnectionArgs,
  fetchPage: (limit: number, offset: number) => Promise<OffsetPage<T>>,
): Promise<Connection<T> & { totalCount: number }> {
  checkPageSize(args);
  let start = args.after != null ? (await offsetOf(list, args.after, 'after')) + 1 : 0;
  let end = args.before != null ? await offsetOf(list, args.before, 'before') : Number.POSITIVE_INFINITY;
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
  const results = page.head(size);
  // After the page: a config list answered under `@current` says which project it is.
  const { named, ready } = nameOf(list);
  await ready;
  const edges = results.map((node, i) => new Edge(node, named, [start + i]));
  return {
    edges,
    pageInfo: new PageInfo(edges, start > 0, start + results.length < page.count),
    totalCount: page.count,
  };
}
