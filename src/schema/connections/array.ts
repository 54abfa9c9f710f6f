// A list the gateway assembles (one it merged from several upstream lists, or searched) as a full
// Relay connection: `after`/`before` are positions in it, `first` keeps the head of the window and
// `last` its tail. A cursor is the list's name and a position. The list is a window source: its
// length, and the items between two positions, so a merged list reads only what a page covers.
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

/** A list known by its length, read by position. */
export interface WindowSource<T> {
  total: number;
  /** The items at positions start (inclusive) to end (exclusive), start < end <= total. */
  slice(start: number, end: number): Promise<readonly T[]>;
}

export async function windowConnection<T>(
  list: ListName,
  args: ConnectionArgs,
  source: () => Promise<WindowSource<T>>,
): Promise<Connection<T> & { totalCount: number }> {
  checkPageSize(args);
  const { named, ready } = nameOf(list);
  // The cursors are checked before the list is read: a bad one costs no upstream call.
  await ready;
  const position = (cursor: string, argument: string) =>
    indexField(decodeCursor(cursor, named.name, argument, 1)[0], argument);
  let start = args.after != null ? position(args.after, 'after') + 1 : 0;
  const before = args.before != null ? position(args.before, 'before') : null;
  const { total, slice } = await source();
  let end = Math.min(total, before ?? total);
  const first = args.first ?? (args.last == null ? DEFAULT_PAGE_SIZE : null);
  if (first != null) end = Math.min(end, start + first);
  if (args.last != null) start = Math.max(start, end - args.last);
  start = Math.min(start, end);
  const items = start < end ? await slice(start, end) : [];
  const edges = items.map((node, i) => new Edge(node, named, [start + i]));
  return { edges, pageInfo: new PageInfo(edges, start > 0, end < total), totalCount: total };
}

/** A list the gateway holds whole. */
export const arrayConnection = <T>(
  list: ListName,
  args: ConnectionArgs,
  items: () => Promise<readonly T[]>,
) =>
  windowConnection(list, args, async () => {
    const all = await items();
    return { total: all.length, slice: async (start, end) => all.slice(start, end) };
  });
