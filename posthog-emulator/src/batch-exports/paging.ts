// DRF's CursorPagination with an OrderingFilter in front of it, as the runs (100 a page) and
// backfills (50 a page) views configure it: the `ordering` query value, when it names an allowed
// field (optionally with `-`), else the view's default; the cursor's position is that field's
// value. The seeded and written records keep every position distinct within an export, so the
// cursor never needs DRF's offset token.
import { type Cursor, decodeCursor, encodeCursor, linkWith, type RequestUrl } from '../http/pagination.ts';

export interface Ordering<T> {
  field: string;
  descending: boolean;
  position: (item: T) => number | null;
}

/** OrderingFilter.get_ordering: the first valid term of `ordering`, else the default. */
export function orderingOf<T>(
  query: URLSearchParams,
  allowed: Record<string, (item: T) => number | null>,
  fallback: string,
): Ordering<T> {
  const terms = (query.get('ordering') ?? '').split(',').map((t) => t.trim());
  const valid = terms.find((t) => t.replace(/^-/, '') in allowed) ?? fallback;
  const field = valid.replace(/^-/, '');
  return { field, descending: valid.startsWith('-'), position: allowed[field]! };
}

export function orderedCursorPage<T>(
  items: readonly T[],
  ordering: Ordering<T>,
  size: number,
  url: RequestUrl,
) {
  // A null position (a backfill from the beginning of time) sorts first and ends the links there.
  const pos = (item: T) => ordering.position(item) ?? Number.NEGATIVE_INFINITY;
  const sign = ordering.descending ? -1 : 1;
  const ordered = [...items].sort((a, b) => sign * (pos(a) - pos(b)));
  const cursor = decodeCursor(url.query.get('cursor'));
  const after = (item: T, p: number) => (ordering.descending ? pos(item) < p : pos(item) > p);
  let page: T[];
  let hasNext: boolean;
  let hasPrevious: boolean;
  if (!cursor.reverse) {
    const rest = cursor.position === null ? ordered : ordered.filter((i) => after(i, cursor.position!));
    page = rest.slice(0, size);
    hasNext = rest.length > size;
    hasPrevious = cursor.position !== null;
  } else {
    const before = ordered.filter((i) => !after(i, cursor.position!) && pos(i) !== cursor.position);
    page = before.slice(Math.max(0, before.length - size));
    hasPrevious = before.length > size;
    hasNext = true;
  }
  const link = (c: Cursor) =>
    Number.isFinite(c.position) ? linkWith(url, { cursor: encodeCursor(c) }) : null;
  const last = page[page.length - 1];
  const first = page[0];
  // DRF's get_next_link / get_previous_link (rest_framework/pagination.py@6ea95b6): an empty
  // page (a cursor read past either end) links from the cursor's own position.
  return {
    next: hasNext ? link({ reverse: false, position: last ? pos(last) : cursor.position }) : null,
    previous: hasPrevious ? link({ reverse: true, position: first ? pos(first) : cursor.position }) : null,
    results: page,
  };
}
