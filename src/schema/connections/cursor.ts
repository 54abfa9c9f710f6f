// The upstream's cursor list (newest first, 100 a page, with `next` and `previous` links) as a
// Relay connection that pages both ways. The gateway never builds an upstream cursor: it follows
// only those the upstream wrote into `next` and `previous`.
//
// An edge's cursor remembers the upstream page it came from (by the upstream cursor that read
// it), its index there and the entry's id. Paging resumes at any edge, mid-page included, and an
// entry pushed down the first page by newer ones is found again by its id.
import { badUserInput } from '../../errors/codes.ts';
import type { ListPage } from '../../upstream/wire/filtered-page.ts';
import {
  type Connection,
  type ConnectionArgs,
  checkPageSize,
  DEFAULT_PAGE_SIZE,
  Edge,
  type ListName,
  type NamedList,
  nameOf,
  PageInfo,
} from './connection.ts';
import { decodeCursor, indexField, invalidCursor } from './cursors.ts';

/** How many upstream pages one connection may read (a loop guard, and the budget's figure). */
export const MAX_UPSTREAM_PAGES = 10;
const UPSTREAM_CURSOR = /^[A-Za-z0-9+/=]{1,2000}$/;

interface Position {
  /** The upstream cursor that read the entry's page; null for the first page. */
  upstreamCursor: string | null;
  index: number;
  entryId: string;
}

type FetchPage<T> = (upstreamCursor: string | null) => Promise<ListPage<T>>;

interface Walk<T> {
  list: NamedList;
  idOf: (item: T) => string;
  fetchPage: FetchPage<T>;
}

function decodePosition(list: string, cursor: string, argument: string): Position {
  const fields = decodeCursor(cursor, list, argument, 3);
  const [upstreamCursor, index, entryId] = fields;
  if (fields.length !== 3) throw invalidCursor(argument);
  if (
    upstreamCursor !== null &&
    (typeof upstreamCursor !== 'string' || !UPSTREAM_CURSOR.test(upstreamCursor))
  ) {
    throw invalidCursor(argument);
  }
  if (typeof entryId !== 'string' || entryId.length === 0 || entryId.length > 200)
    throw invalidCursor(argument);
  return { upstreamCursor, index: indexField(index, argument, 10_000), entryId };
}

/** Where a position's entry is in its page: found by id, else where it was. */
function locate<T>(walk: Walk<T>, page: ListPage<T>, position: Position): number {
  for (let index = 0; page.has(index); index++) {
    if (walk.idOf(page.at(index)) === position.entryId) return index;
  }
  return Math.min(position.index, page.size);
}

const edgeOf = <T>(walk: Walk<T>, node: T, upstreamCursor: string | null, index: number) =>
  new Edge(node, walk.list, [upstreamCursor, index, walk.idOf(node)]);

/** `first` entries after `after` (or from the top), stopping at `before`. */
async function forward<T>(walk: Walk<T>, first: number, after: Position | null, before: Position | null) {
  let upstreamCursor = after?.upstreamCursor ?? null;
  let page = await walk.fetchPage(upstreamCursor);
  let index = after ? locate(walk, page, after) + 1 : 0;
  const edges: Edge<T>[] = [];
  let reachedBefore = false;
  for (let pages = 1; ; pages++) {
    for (; edges.length < first && page.has(index); index++) {
      const node = page.at(index);
      if (before && walk.idOf(node) === before.entryId) {
        reachedBefore = true;
        break;
      }
      edges.push(edgeOf(walk, node, upstreamCursor, index));
    }
    const next = page.nextCursor;
    if (reachedBefore || edges.length >= first || !next || next === upstreamCursor) break;
    if (pages >= MAX_UPSTREAM_PAGES) break;
    upstreamCursor = next;
    index = 0;
    page = await walk.fetchPage(upstreamCursor);
  }
  const hasNextPage = reachedBefore || page.has(index) || page.nextCursor !== null;
  return { edges, pageInfo: new PageInfo(edges, after !== null, hasNextPage) };
}

/** `last` entries before `before`, stopping at `after`: back through the `previous` links. */
async function backward<T>(walk: Walk<T>, last: number, before: Position, after: Position | null) {
  let upstreamCursor = before.upstreamCursor;
  let page = await walk.fetchPage(upstreamCursor);
  let index = locate(walk, page, before);
  const newestLast: Edge<T>[] = [];
  let reachedAfter = false;
  for (let pages = 1; ; pages++) {
    for (; newestLast.length < last && index > 0; index--) {
      const node = page.at(index - 1);
      if (after && walk.idOf(node) === after.entryId) {
        reachedAfter = true;
        break;
      }
      newestLast.push(edgeOf(walk, node, upstreamCursor, index - 1));
    }
    const previous = page.previousCursor;
    if (reachedAfter || newestLast.length >= last || !previous || previous === upstreamCursor) break;
    if (pages >= MAX_UPSTREAM_PAGES) break;
    upstreamCursor = previous;
    page = await walk.fetchPage(upstreamCursor);
    index = page.size;
  }
  const edges = newestLast.reverse();
  const hasPreviousPage = reachedAfter || index > 0 || page.previousCursor !== null;
  // What follows is at least the `before` entry itself.
  return { edges, pageInfo: new PageInfo(edges, hasPreviousPage, true) };
}

/**
 * The `last` entries of the whole list (after `after`, when given). The upstream can only be
 * read from the top, so this follows `next` links to the end, at most MAX_UPSTREAM_PAGES pages.
 */
async function tail<T>(walk: Walk<T>, last: number, after: Position | null) {
  let upstreamCursor = after?.upstreamCursor ?? null;
  let page = await walk.fetchPage(upstreamCursor);
  const entries: { node: T; upstreamCursor: string | null; index: number }[] = [];
  let index = after ? locate(walk, page, after) + 1 : 0;
  for (let pages = 1; ; pages++) {
    for (; page.has(index); index++) {
      entries.push({ node: page.at(index), upstreamCursor, index });
    }
    const next = page.nextCursor;
    if (!next || next === upstreamCursor) break;
    if (pages >= MAX_UPSTREAM_PAGES) {
      throw badUserInput(
        `This list is longer than ${MAX_UPSTREAM_PAGES} upstream pages: page it backward from a \`before\` cursor, or forward with \`first\`.`,
        { field: 'last' },
      );
    }
    upstreamCursor = next;
    index = 0;
    page = await walk.fetchPage(upstreamCursor);
  }
  const kept = entries.slice(Math.max(0, entries.length - last));
  const edges = kept.map((e) => edgeOf(walk, e.node, e.upstreamCursor, e.index));
  return { edges, pageInfo: new PageInfo(edges, after !== null || entries.length > kept.length, false) };
}

export async function cursorConnection<T>(
  list: ListName,
  args: ConnectionArgs,
  idOf: (item: T) => string,
  fetchPage: FetchPage<T>,
): Promise<Connection<T>> {
  checkPageSize(args);
  if (args.first != null && args.last != null) {
    throw badUserInput('Pass `first` (forward) or `last` (backward), not both.', { field: 'last' });
  }
  const { named, ready } = nameOf(list);
  if (args.after != null || args.before != null) await ready;
  const after = args.after != null ? decodePosition(named.name, args.after, 'after') : null;
  const before = args.before != null ? decodePosition(named.name, args.before, 'before') : null;
  const walk: Walk<T> = { list: named, idOf, fetchPage };
  const connection =
    args.last == null
      ? forward(walk, args.first ?? DEFAULT_PAGE_SIZE, after, before)
      : before
        ? backward(walk, args.last, before, after)
        : tail(walk, args.last, after);
  const [result] = await Promise.all([connection, ready]);
  return result;
}

/**
 * The first entries of a list, read some other way than its own first page (several items'
 * newest entries in one read: loaders/activity/heads.ts), as the connection `first` with no
 * `after` gives: the same cursors (the list's first page, the index there), so `after` goes on
 * through the list's own pages.
 */
export async function headConnection<T>(
  list: ListName,
  entries: readonly T[],
  idOf: (item: T) => string,
  more: boolean,
): Promise<Connection<T>> {
  const { named, ready } = nameOf(list);
  await ready;
  const edges = entries.map((node, index) => new Edge(node, named, [null, index, idOf(node)]));
  return { edges, pageInfo: new PageInfo(edges, false, more) };
}
