// What both kinds of upstream list share once they are Relay connections: the arguments, their
// checks, and edges whose cursors are computed only when a caller selects them.
//
// offset.ts: the upstream's limit/offset list. cursor.ts: its cursor list.

import type { MaybePromise } from '../../core/maybe-promise.ts';
import { badUserInput } from '../../errors/codes.ts';
import { type CursorField, encodeCursor } from './cursors.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * The name a connection's cursors carry (e.g. `configs:1`): a cursor decodes only for the list
 * that wrote it. It holds a numeric project id, so for `@current` it may take a call to know.
 */
export type ListName = () => MaybePromise<string>;

/**
 * A list's name once known. A connection fills it before it returns its edges, so that a cursor
 * is always a string: graphql-jit reads an exposed field such as `cursor` as a plain property and
 * serialised a promise there as `{}` (the answer was then an error, and the promise's upstream
 * call ran after the answer was sent).
 */
export interface NamedList {
  name: string;
}

/**
 * The name of `list`, awaited by the connection before it returns; started at once so that it is
 * fetched (for `@current`) alongside the connection's first page, not after it.
 */
export function nameOf(list: ListName): { named: NamedList; ready: Promise<void> } {
  const named: NamedList = { name: '' };
  const ready = Promise.resolve(list()).then((name) => {
    named.name = name;
  });
  // Awaited by the connection; a connection that fails first must not leave it unhandled.
  ready.catch(() => {});
  return { named, ready };
}

/** An edge: its cursor is encoded when (and only if) the caller selects it. */
export class Edge<T> {
  constructor(
    readonly node: T,
    private readonly list: NamedList,
    private readonly fields: readonly CursorField[],
  ) {}

  get cursor(): string {
    return encodeCursor(this.list.name, this.fields);
  }
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo<T>;
  totalCount?: number;
}

export class PageInfo<T> {
  constructor(
    private readonly edges: Edge<T>[],
    readonly hasPreviousPage: boolean,
    readonly hasNextPage: boolean,
  ) {}

  get startCursor() {
    return this.edges[0]?.cursor ?? null;
  }

  get endCursor() {
    return this.edges.at(-1)?.cursor ?? null;
  }
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
