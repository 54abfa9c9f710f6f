// The activity log as PostHog serves it in late 2026 (posthog/api/advanced_activity_logs/): a
// paid feature (402 on a plan without audit logs, unless narrowed to FeatureFlag or Experiment),
// `page_size` up to 1000, `ordering=created_at` for oldest first, `follow=true` to keep a `next`
// cursor at the tail (the way to poll without losing entries), `page=N` for numbered pages, and
// entries that carry `team_id`, `client` and `ip_address`.
import { ApiError, notFound, validationError } from './api-error.ts';
import { serializeEntry } from './dialect.ts';
import type { ActivityEntry } from './model.ts';
import {
  type Cursor,
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  linkWith,
  positiveInt,
} from './pagination.ts';
import { ok, type Reply, type RouteContext } from './reply.ts';

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

export function listActivity2026(ctx: RouteContext): Reply {
  const { store, project, url } = ctx;
  const scopes = requestedScopes(url.query);
  const organization = store.organizations.get(project.organizationId)!;
  if (!organization.auditLogs && !(scopes.length > 0 && scopes.every((s) => FREE_SCOPES.has(s))))
    throw paymentRequired();
  const ascending = url.query.get('ordering') === 'created_at';
  const entries = filtered(ctx, scopes).sort((a, b) =>
    ascending ? a.createdAtMicros - b.createdAtMicros : b.createdAtMicros - a.createdAtMicros,
  );
  const size = Math.min(MAX_PAGE_SIZE, positiveInt(url.query.get('page_size'), true) ?? DEFAULT_PAGE_SIZE);
  const serialize = (e: ActivityEntry) => ({
    ...serializeEntry(store, e, false),
    team_id: e.projectId,
    client: e.userId === null ? null : 'api',
    ip_address: null,
  });
  const pageNumber = url.query.get('page');
  if (pageNumber !== null) {
    const page = numberedPage(entries, size, pageNumber, url);
    return ok({ ...page, results: page.results.map(serialize) });
  }
  const follow = url.query.get('follow') === 'true' && ascending;
  const page = orderedCursorPage(entries, size, ascending, follow, url);
  return ok({ ...page, results: page.results.map(serialize) });
}

/** `scope` and `scopes` (a comma list) together. */
function requestedScopes(query: URLSearchParams): string[] {
  const scopes = (query.get('scopes') ?? '').split(',').filter(Boolean);
  const scope = query.get('scope');
  return scope === null ? scopes : [...scopes, scope];
}

function filtered({ store, project, url }: RouteContext, scopes: string[]): ActivityEntry[] {
  let entries = store.activity.filter((e) => e.projectId === project.id);
  const user = url.query.get('user');
  if (user !== null) {
    if (!/^\d+$/.test(user)) throw validationError('user', 'invalid_input', 'A valid integer is required.');
    entries = entries.filter((e) => e.userId === Number(user));
  }
  if (scopes.length > 0) entries = entries.filter((e) => scopes.includes(e.scope));
  const itemId = url.query.get('item_id');
  if (itemId !== null) entries = entries.filter((e) => e.item_id === itemId);
  return entries;
}

/** DRF's PageNumberPagination: `page=N` (from 1), `count`, links with `page`. */
function numberedPage(entries: ActivityEntry[], size: number, text: string, url: RouteContext['url']) {
  const page = positiveInt(text, true);
  const pages = Math.max(1, Math.ceil(entries.length / size));
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
  else if (follow) next = linkWith(url, asked === null ? {} : { cursor: asked });
  const previous = hasPrevious && page.length ? link({ reverse: true, position: position(page[0]!) }) : null;
  return { next, previous, results: page };
}
