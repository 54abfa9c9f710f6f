// A list the gateway holds whole (one it merged from several upstream lists) as a full Relay
// connection: `after`/`before` are positions in it, `first` keeps the head of the window and
// `last` its tail. A cursor is the list's name and a position.
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

export async function arrayConnection<T>(
  list: ListName,
  args: ConnectionArgs,
  items: () => Promise<readonly T[]>,
): Promise<Connection<T> & { totalCount: number }> {
  checkPageSize(args);
  const { named, ready } = nameOf(list);
  // The cursors are checked before the list is read: a bad one costs no upstream call.
  await ready;
  const position = (cursor: string, argument: string) =>
    indexField(decodeCursor(cursor, named.name, argument, 1)[0], argument);
  let start = args.after != null ? position(args.after, 'after') + 1 : 0;
  const before = args.before != null ? position(args.before, 'before') : null;
  const all = await items();
  let end = Math.min(all.length, before ?? all.length);
  const first = args.first ?? (args.last == null ? DEFAULT_PAGE_SIZE : null);
  if (first != null) end = Math.min(end, start + first);
  if (args.last != null) start = Math.max(start, end - args.last);
  start = Math.min(start, end);
  const edges = all.slice(start, end).map((node, i) => new Edge(node, named, [start + i]));
  return { edges, pageInfo: new PageInfo(edges, start > 0, end < all.length), totalCount: all.length };
}
