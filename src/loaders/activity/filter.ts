// The activity log's `filter` (ActivityLogFilter) as each route takes it. PostHog's
// advanced_activity_logs filters by scopes, activities, item_ids, start_date, end_date and
// search_text itself (posthog/api/advanced_activity_logs/viewset.py@1b10cf8,
// AdvancedActivityLogFiltersSerializer; filters.py@072764f: dates inclusive, search_text is
// `detail::text icontains`); its `users` takes UUIDs, so e-mails, the plain `user` id and the
// exclusive `until` are the gateway's, over what it reads. The plain activity_log (PostHog before
// it, the interface document) takes one scope, one item_id and a user id: the gateway filters the
// rest from its pages (activity.ts reads them; filtered-page.ts shows a page's matches).
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';

export interface ActivityLogFilter {
  scopes?: readonly string[] | null;
  activities?: readonly string[] | null;
  userEmails?: readonly string[] | null;
  itemIds?: readonly string[] | null;
  /** ISO 8601: entries at or after it. */
  since?: string | null;
  /** ISO 8601: entries before it. */
  until?: string | null;
  search?: string | null;
}

/** The filters of one list: the field's arguments and its `filter`. */
export interface ListFilters {
  scope?: string | null;
  itemId?: string | null;
  userId?: number | null;
  filter?: ActivityLogFilter | null;
}

export type ActivityRoute = 'advanced' | 'plain';

/** The filter without its empty parts, keys in one order; null when nothing is left. */
export function normalizedFilter(filter: ActivityLogFilter | null | undefined): ActivityLogFilter | null {
  if (!filter) return null;
  const list = (values: readonly string[] | null | undefined) => (values?.length ? [...values] : null);
  const kept: ActivityLogFilter = {
    scopes: list(filter.scopes),
    activities: list(filter.activities),
    userEmails: list(filter.userEmails?.map((e) => e.toLowerCase())),
    itemIds: list(filter.itemIds),
    since: filter.since || null,
    until: filter.until || null,
    search: filter.search || null,
  };
  return Object.values(kept).some((v) => v !== null) ? kept : null;
}

type Query = Record<string, string | number | string[] | undefined>;

/** advanced_activity_logs' parameters; its lists go as repeated parameters. */
export function advancedQuery({ scope, itemId, filter }: ListFilters): Query {
  const f = filter ?? {};
  const many = (one: string | null | undefined, list: readonly string[] | null | undefined) =>
    one != null ? [one] : list?.length ? [...list] : undefined;
  return {
    scopes: many(scope, f.scopes),
    item_ids: many(itemId, f.itemIds),
    activities: f.activities?.length ? [...f.activities] : undefined,
    start_date: f.since ?? undefined,
    // PostHog's end_date is inclusive: a microsecond before `until` leaves `until` out.
    end_date: f.until ? isoOfMicros(microsOf(f.until) - 1) : undefined,
    search_text: f.search ?? undefined,
  };
}

/** The plain activity_log's parameters: one scope and one item id when the filter names only one. */
export function plainQuery({ scope, itemId, userId, filter }: ListFilters): Query {
  const only = (list: readonly string[] | null | undefined) => (list?.length === 1 ? list[0] : undefined);
  return {
    scope: scope ?? only(filter?.scopes),
    item_id: itemId ?? only(filter?.itemIds),
    user: userId ?? undefined,
  };
}

/**
 * Whether the gateway checks entries itself: the route answers some that do not match, so a page
 * may hold fewer matches than it reads. On the advanced route: the user id, e-mails, and a list
 * beside the field's own `scope` or `itemId` argument; on the plain route: any filter.
 */
export function checksEntries(filters: ListFilters, route: ActivityRoute): boolean {
  const f = filters.filter;
  if (route === 'plain') return !!f;
  return (
    !!f &&
    (filters.userId != null ||
      !!f.userEmails?.length ||
      (filters.scope != null && !!f.scopes?.length) ||
      (filters.itemId != null && !!f.itemIds?.length))
  );
}

/** The check the gateway applies to a route's entries; null when the route's answer is exact. */
export function gatewayCheck(filters: ListFilters, route: ActivityRoute) {
  if (!checksEntries(filters, route)) return null;
  const f = filters.filter ?? {};
  const plain = route === 'plain';
  const since = f.since ? microsOf(f.since) : null;
  const until = f.until ? microsOf(f.until) : null;
  const search = f.search?.toLowerCase() ?? null;
  const has = (list: readonly string[] | null | undefined, value: string | null) =>
    !list?.length || (value !== null && list.includes(value));
  return (e: ActivityEntryRecord): boolean =>
    (filters.userId == null || e.user?.id === filters.userId) &&
    has(f.scopes, e.scope) &&
    has(f.activities, e.activity) &&
    has(f.itemIds, e.itemId) &&
    has(f.userEmails, e.user?.email?.toLowerCase() ?? null) &&
    (!plain || since === null || microsOf(e.createdAt) >= since) &&
    (!plain || until === null || microsOf(e.createdAt) < until) &&
    (!plain || search === null || detailText(e.detail).includes(search));
}

/** An ISO 8601 time in microseconds since the epoch (the upstream writes microseconds). */
export function microsOf(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return Date.parse(iso) * 1000 + Number(fraction.padEnd(6, '0').slice(3, 6));
}

/** Microseconds since the epoch as ISO 8601 in UTC, with all six digits. */
function isoOfMicros(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const rest = String(micros - millis * 1000).padStart(3, '0');
  return new Date(millis).toISOString().replace('Z', `${rest}Z`);
}

/** An entry's detail as Postgres writes jsonb as text (`": "`, `", "`), lower-cased. */
function detailText(detail: unknown): string {
  const text = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(text).join(', ')}]`;
    if (value !== null && typeof value === 'object')
      return `{${Object.entries(value)
        .map(([k, v]) => `${JSON.stringify(k)}: ${text(v)}`)
        .join(', ')}}`;
    return JSON.stringify(value) ?? 'null';
  };
  return text(detail ?? null).toLowerCase();
}
