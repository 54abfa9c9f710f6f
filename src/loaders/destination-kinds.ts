// One kind of destination as Project.destinations reads it: a count and the items at offsets.
// A kind PostHog can count for the gateway (its list is what the merged list shows) is paged:
// its first page says the count, and a window reads only the pages it covers. A kind the gateway
// must filter itself (plugin configs an enabled legacy_destination supersedes; `enabled` on
// configs or batch exports, which PostHog's lists cannot filter) is read whole, page by page.
import type { OffsetPage } from '../upstream/wire/pages.ts';

/** A kind's part of the merged list. */
export interface KindList<T> {
  count: number;
  /** Its items at offsets start (inclusive) to end (exclusive). */
  slice(start: number, end: number): Promise<T[]>;
}

export const PAGE_SIZE = 100;
/** Pages of one kind read at most when read whole (10,000 items). */
const MAX_PAGES = 100;
/** The items of one kind read whole at most. */
export const MAX_WHOLE = MAX_PAGES * PAGE_SIZE;

type PageAt<T> = (offset: number) => Promise<OffsetPage<T>>;

/** A kind PostHog counts: the first page is read now, the rest when a window reaches it. */
export async function pagedKind<T>(pageAt: PageAt<T>, keep: (item: T) => boolean = () => true) {
  const first = await pageAt(0);
  const list: KindList<T> = {
    count: first.count,
    async slice(start, end) {
      const pages: Promise<T[]>[] = [];
      for (let offset = Math.floor(start / PAGE_SIZE) * PAGE_SIZE; offset < end; offset += PAGE_SIZE) {
        pages.push((offset === 0 ? Promise.resolve(first) : pageAt(offset)).then((p) => p.head(PAGE_SIZE)));
      }
      const items = (await Promise.all(pages)).flat();
      const from = start - Math.floor(start / PAGE_SIZE) * PAGE_SIZE;
      return items.slice(from, from + (end - start)).filter(keep);
    },
  };
  return { list, first };
}

/** A kind held whole. */
export const wholeKind = <T>(items: T[]): KindList<T> => ({
  count: items.length,
  slice: async (start, end) => items.slice(start, end),
});

/** Every page of a list, read in parallel once the first says how many there are. */
export async function everyPage<T>(pageAt: PageAt<T>): Promise<T[]> {
  const first = await pageAt(0);
  // Read now, not after the rest arrive: a page read whole lets its answer's bytes go (pages.ts).
  const items = first.head(PAGE_SIZE);
  const pages = Math.min(MAX_PAGES, Math.ceil(first.count / PAGE_SIZE));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      pageAt((i + 1) * PAGE_SIZE).then((page) => page.head(PAGE_SIZE)),
    ),
  );
  return items.concat(...rest);
}
