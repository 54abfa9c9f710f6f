// The activity log as PostHog serves it in late 2026 (posthog/api/advanced_activity_logs/): a
// paid feature (402 on a plan without audit logs, unless narrowed to FeatureFlag or Experiment),
// `page_size` up to 1000, `ordering=created_at` for oldest first, `follow=true` to keep a `next`
// cursor at the tail (the way to poll without losing entries), `page=N` for numbered pages, and
// entries that carry `team_id`, `client`, `ip_address` and `credential_type`. The filtered
// advanced_activity_logs route: activity-advanced.ts.

import { tolerantList } from './advanced.ts';
import { ApiError, notFound, serverError } from '../http/api-error.ts';
import { formatTimestamp } from '../dialect.ts';
import { userBasic } from '../hog-functions/view.ts';
import type { ActivityEntry } from '../model.ts';
import {
  type Cursor,
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  linkWith,
  positiveInt,
} from '../http/pagination.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

const MAX_PAGE_SIZE = 1_000;
/** Scopes a plan without audit logs may still read. */
const FREE_SCOPES = new Set(['FeatureFlag', 'Experiment']);

export const paymentRequired = () =>
  new ApiError(
    402,
    'server_error',
    'payment_required',
    'Audit logs requires a paid PostHog plan. Please upgrade to access this feature.',
  );

/** ActivityLogSerializer (fields "__all__", user as UserBasicSerializer), in its field order. */
function serializeEntry2026(store: RouteContext['store'], e: ActivityEntry) {
  return {
    id: e.id,
    user: e.userId === null ? null : userBasic(store.users.get(e.userId)),
    unread: false,
    team_id: e.projectId,
    organization_id: e.organizationId,
    was_impersonated: e.was_impersonated,
    is_system: e.is_system,
    client: e.client ?? null,
    ip_address: null,
    // The October model's credential columns (activity_log.py@7c88b78), as `__all__` serializes
    // them; credential_id and impersonated_by_id are not modelled.
    credential_type: e.credentialType ?? null,
    activity: e.activity,
    item_id: e.item_id,
    scope: e.scope,
    detail: e.detail,
    created_at: formatTimestamp(e.createdAtMicros),
  };
}

// posthog/api/advanced_activity_logs/viewset.py, ActivityLogViewSet.list (ActivityLogPagination; permissions.py)
export function listActivity2026(ctx: RouteContext): Reply {
  return pagedActivity(ctx, filtered(ctx));
}

/** The paywall, the ordering and ActivityLogPagination over entries already filtered. */
export function pagedActivity(ctx: RouteContext, filteredEntries: ActivityEntry[]): Reply {
  const { store, project, url } = ctx;
  const organization = store.organizations.get(project.organizationId)!;
  if (!organization.auditLogs && !billingExempt(url.query)) throw paymentRequired();
  const ascending = url.query.get('ordering') === 'created_at';
  const entries = filteredEntries.sort((a, b) =>
    ascending ? a.createdAtMicros - b.createdAtMicros : b.createdAtMicros - a.createdAtMicros,
  );
  const size = Math.min(MAX_PAGE_SIZE, positiveInt(url.query.get('page_size'), true) ?? DEFAULT_PAGE_SIZE);
  const serialize = (e: ActivityEntry) => serializeEntry2026(store, e);
  const pageNumber = url.query.get('page');
  if (pageNumber) {
    const page = numberedPage(entries, size, pageNumber, url);
    return ok({ ...page, results: page.results.map(serialize) });
  }
  const follow = url.query.get('follow') === 'true' && ascending;
  const page = orderedCursorPage(entries, size, ascending, follow, url);
  return ok({ ...page, results: page.results.map(serialize) });
}

/**
 * permissions.py, requested_scopes_are_billing_exempt: what `scope` and `scopes` (repeated, JSON
 * arrays or comma lists) can reach together, when that is only free scopes.
 */
function billingExempt(query: URLSearchParams): boolean {
  let reachable: Set<string> | null = query.get('scope') ? new Set([query.get('scope')!]) : null;
  const scopes = tolerantList(query, 'scopes');
  if (scopes.size > 0)
    reachable = reachable === null ? scopes : new Set([...reachable].filter((s) => scopes.has(s)));
  return reachable !== null && reachable.size > 0 && [...reachable].every((s) => FREE_SCOPES.has(s));
}

/** safely_get_queryset: `user`, `scope`, `scopes` (a comma list) and `item_id`, ANDed; empty ones ignored. */
function filtered({ store, project, url }: RouteContext): ActivityEntry[] {
  const q = url.query;
  // request.GET.dict(): the last value of a repeated key.
  const param = (k: string) => q.getAll(k).at(-1) || null;
  let entries = store.activity.filter((e) => e.projectId === project.id);
  const user = param('user');
  if (user !== null) {
    // filter(user=...) on the integer key: Django raises on anything else, unhandled.
    if (!/^\s*[+-]?\d+\s*$/.test(user)) throw serverError();
    entries = entries.filter((e) => e.userId === Number(user));
  }
  const scope = param('scope');
  if (scope !== null) entries = entries.filter((e) => e.scope === scope);
  const scopes = param('scopes')?.split(',');
  if (scopes) entries = entries.filter((e) => scopes.includes(e.scope));
  const itemId = param('item_id');
  if (itemId !== null) entries = entries.filter((e) => e.item_id === itemId);
  return entries;
}

/** DRF's PageNumberPagination: `page=N` (from 1), `count`, links with `page`. */
function numberedPage(entries: ActivityEntry[], size: number, text: string, url: RouteContext['url']) {
  const pages = Math.max(1, Math.ceil(entries.length / size));
  const page = text === 'last' ? pages : positiveInt(text, true);
  if (page === undefined || page > pages) throw notFound('Invalid page.');
  const results = entries.slice((page - 1) * size, page * size);
  const link = (n: number) => (n === 1 ? linkWith(url, {}, ['page']) : linkWith(url, { page: String(n) }));
  return {
    count: entries.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  };
}

/**
 * DRF's CursorPagination in either order, over entries whose positions (created_at) are all
 * distinct. Forward goes the way of the ordering; `follow`: at the tail, `next` stays, pointing
 * after the last entry (or, on an empty page, the cursor asked with), so a poller never loses one.
 */
function orderedCursorPage(
  ordered: ActivityEntry[],
  size: number,
  ascending: boolean,
  follow: boolean,
  url: RouteContext['url'],
) {
  const asked = url.query.get('cursor');
  const cursor = decodeCursor(asked);
  const position = (e: ActivityEntry) => e.createdAtMicros;
  const after = (e: ActivityEntry, p: number) => (ascending ? position(e) > p : position(e) < p);
  let page: ActivityEntry[];
  let hasNext: boolean;
  let hasPrevious: boolean;
  if (!cursor.reverse) {
    const rest = cursor.position === null ? ordered : ordered.filter((e) => after(e, cursor.position!));
    page = rest.slice(0, size);
    hasNext = rest.length > size;
    hasPrevious = cursor.position !== null;
  } else {
    const before = ordered.filter((e) => !after(e, cursor.position!) && position(e) !== cursor.position);
    page = before.slice(Math.max(0, before.length - size));
    hasPrevious = before.length > size;
    hasNext = true;
  }
  const link = (c: Cursor) => linkWith(url, { cursor: encodeCursor(c) });
  const last = page[page.length - 1];
  let next: string | null = null;
  if ((hasNext || follow) && last) next = link({ reverse: false, position: position(last) });
  // DRF's get_next_link (rest_framework/pagination.py@6ea95b6): an empty reverse page links
  // forward from the cursor's own position.
  else if (hasNext && cursor.reverse) next = link({ reverse: false, position: cursor.position });
  // TailFollowingCursorPagination: nothing new, so the same cursor again (none without one).
  else if (follow && asked !== null) next = link(cursor);
  // get_previous_link: an empty page (read past the end) links back from the cursor's position.
  const previousPosition = page.length ? position(page[0]!) : cursor.position;
  const previous = hasPrevious ? link({ reverse: true, position: previousPosition }) : null;
  return { next, previous, results: page };
}
