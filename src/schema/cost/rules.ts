// The prices several fields share, for their declarations (`priced({ ...OFFSET_LIST })`): how the
// loaders page each kind of upstream list, and which fields are read with their list's other
// items' (cross-links, an item's newest activity).
import { BREAK, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, visit } from 'graphql';
import { CURRENT_PROJECT } from '../../core/ids.ts';
import { type ActivityLogFilter, checksEntries, normalizedFilter } from '../../loaders/activity/filter.ts';
import { TEMPLATE_SEARCH_PAGES } from '../../loaders/hog-functions/templates.ts';
import { MAX_UPSTREAM_PAGES } from '../connections/cursor.ts';
import { FIELDS_LISTS_LACK, selects } from '../selection.ts';
import type { Args, FieldPrice, PriceSite, Walk } from './price.ts';

/**
 * What one batch of cross-links to configs is counted as: the page's distinct configs, read as
 * list pages (the first, and the rest when fewer than the ids still missing: two more cover 300
 * configs) plus two retrieves of configs lists leave out (soft-deleted), or a retrieve each when
 * there are only a few.
 */
export const CROSS_LINK_BATCH_CALLS = 5;

/** Upstream calls of `links` cross-links resolved together. */
export const batchCalls = (links: number) => Math.min(links, CROSS_LINK_BATCH_CALLS);

/**
 * What Project.destinations reads, at worst in an ordinary project: a page of hog functions, two
 * pages of plugin configs, a retrieve per distinct plugin (PostHog's catalogue of the plugins
 * still in use is small), and a page of batch exports. A project past it is refused by the
 * run-time backstop, not mis-served.
 */
export const DESTINATIONS_CALLS = 11;

/**
 * A global id: it holds the project's numeric id, known but for `@current` (then one read a
 * request, loaders/current-project.ts, which the price leaves out).
 */
export const GLOBAL_ID = { calls: 0 } satisfies Partial<FieldPrice>;

/**
 * What `@current` stands for, read once a request where a field needs the project's numeric id
 * (a global id, a cursor, a write: loaders/current-project.ts): one call for an operation that
 * names `@current` in an argument or a variable, none otherwise.
 */
export function currentProjectLookup(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Args,
): number {
  if (JSON.stringify(variables).includes(JSON.stringify(CURRENT_PROJECT))) return 1;
  let named = false;
  for (const node of [operation, ...fragments.values()]) {
    visit(node, {
      [Kind.STRING]: (value) => {
        if (value.value !== CURRENT_PROJECT) return undefined;
        named = true;
        return BREAK;
      },
    });
    if (named) return 1;
  }
  return 0;
}

/** A Relay connection: `first` or `last` items (20 when neither is given). */
export const CONNECTION = { connection: true } as const;

/**
 * Project.destinations: DESTINATIONS_CALLS, and with `search` one more: a searched page of hog
 * functions does not say which legacy_destinations supersede configs, so they are read on their
 * own. `orderBy` reads each kind whole, which in such a project is the pages above.
 */
export const DESTINATIONS_PRICE = {
  list: CONNECTION,
  calls: ({ args }: PriceSite) => DESTINATIONS_CALLS + (args.search != null ? 1 : 0),
  worst: DESTINATIONS_CALLS + 1,
} satisfies Partial<FieldPrice>;

/** `last` without `before` reads from the end: the first page (for the count), then the last. */
const fromTheEnd = (args: Args) => args.last != null && args.before == null;

/** A connection over a limit/offset list: one page, two read from the end. */
export const OFFSET_LIST = {
  list: CONNECTION,
  calls: ({ args }: PriceSite) => (fromTheEnd(args) ? 2 : 1),
  worst: 2,
} satisfies Partial<FieldPrice>;

/** Hog function templates: an offset list, or the pages a search reads. */
export const TEMPLATE_LIST = {
  list: CONNECTION,
  calls: (site: PriceSite) => (site.args.search != null ? TEMPLATE_SEARCH_PAGES : OFFSET_LIST.calls(site)),
  worst: Math.max(TEMPLATE_SEARCH_PAGES, OFFSET_LIST.worst),
} satisfies Partial<FieldPrice>;

/**
 * Cursor lists of runs (100 a page) and backfills (50): as the activity log's, at most 3 pages
 * for any `first` from a cursor (backfills' pages are half the size of a connection's).
 */
export const RUN_LIST = {
  list: CONNECTION,
  calls: ({ args }: PriceSite) => {
    if (fromTheEnd(args)) return MAX_UPSTREAM_PAGES;
    return args.after != null || args.before != null ? 3 : 2;
  },
  worst: Math.max(MAX_UPSTREAM_PAGES, 3),
} satisfies Partial<FieldPrice>;

/** The pages an activity list reads when every entry the upstream sends matches. */
function activityPages(args: Args): number {
  // Backward without `before` reads from the top to the end of the log.
  if (fromTheEnd(args)) return MAX_UPSTREAM_PAGES;
  // The page a cursor points into, and the next (or previous) one when `first` (`last`) runs
  // past it. From the top, one upstream page (100) holds any `first` (at most 100).
  return args.after != null || args.before != null ? 2 : 1;
}

/** An item's activity: its pages, or a share of its page's items' one read (`itemHead`). */
export const ITEM_ACTIVITY = {
  list: CONNECTION,
  calls: ({ args }: PriceSite) => activityPages(args),
  worst: Math.max(MAX_UPSTREAM_PAGES, 2),
  itemHead: true,
} satisfies Partial<FieldPrice>;

/**
 * A project's activity log; a `filter` the gateway checks itself (loaders/activity/filter.ts)
 * may leave a page with fewer matches than it reads: then up to MAX_UPSTREAM_PAGES pages, after
 * one try of advanced_activity_logs while the upstream's routes are not known.
 */
export const ACTIVITY_LOG = {
  list: CONNECTION,
  calls: ({ args, walk }: PriceSite) =>
    filterWalksPages(walk, args) ? MAX_UPSTREAM_PAGES + 1 : activityPages(args),
  worst: MAX_UPSTREAM_PAGES + 1,
} satisfies Partial<FieldPrice>;

function filterWalksPages(walk: Walk, args: Args): boolean {
  const filter = normalizedFilter(args.filter as ActivityLogFilter | null | undefined);
  if (!filter) return false;
  const filters = {
    scope: args.scope as string,
    itemId: args.itemId as string,
    userId: args.userId as number,
    filter,
  };
  return !walk.itemHeadsBatched || checksEntries(filters, 'advanced');
}

/** An item's `activity(first: n)` from the top, where the upstream serves several items' at once. */
export const isItemHead = (walk: Walk, args: Args) =>
  walk.itemHeadsBatched &&
  typeof args.first === 'number' &&
  args.first > 0 &&
  args.after == null &&
  args.before == null &&
  args.last == null;

/**
 * A field read with its list's other items' in one batch, not retrieved alone (an entry's hog
 * function or batch export, a run's backfill: loaders/batch-exports/run-backfills.ts): each counts as a call,
 * CROSS_LINK_BATCH_CALLS at most a list.
 */
export const CROSS_LINK = { calls: 0, worst: 1, batched: () => true } satisfies Partial<FieldPrice>;

/**
 * An entry's config: batched as a cross-link unless a field lists leave out is selected (then a
 * retrieve of its own).
 */
export const CONFIG_CROSS_LINK = {
  calls: 1,
  batched: ({ node, walk }: PriceSite) => !selects(node.selectionSet, FIELDS_LISTS_LACK, walk.fragments),
} satisfies Partial<FieldPrice>;
