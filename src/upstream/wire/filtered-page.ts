// A cursor page as a list the gateway filters itself shows it: only the entries that match, in
// the page's order, with the page's own `next` and `previous` cursors. A connection walks it as
// it walks the page (schema/connections/cursor.ts): an edge's index is its place among the
// matches, the same on every read of the page with the same filter.
import type { CursorPage } from './pages.ts';

/** What a cursor connection reads of a page. */
export type ListPage<T> = Pick<CursorPage<T>, 'has' | 'at' | 'size' | 'nextCursor' | 'previousCursor'>;

export class FilteredPage<T> implements ListPage<T> {
  private readonly kept: T[];
  readonly nextCursor: string | null;
  readonly previousCursor: string | null;

  constructor(page: CursorPage<T>, matches: (entry: T) => boolean) {
    this.kept = page.head(page.size).filter(matches);
    this.nextCursor = page.nextCursor;
    this.previousCursor = page.previousCursor;
  }

  has(index: number): boolean {
    return index < this.kept.length;
  }

  get size(): number {
    return this.kept.length;
  }

  at(index: number): T {
    return this.kept[index]!;
  }
}
