// The hog function list (products/cdp/backend/api/hog_function.py at 0019077,
// HogFunctionViewSet.list): HogFunctionFilterSet, `filters`/`filter_groups` as
// `filters__contains`, `search` (hog-search.ts), then order_by("execution_order", "-updated_at")
// and DRF's limit/offset pages; the minimal serializer unless `?full=true`.
import { fieldError, hogValidationError, viewValidationError } from './errors.ts';
import { viewOf } from './routes.ts';
import { serializeHogFunction } from './view.ts';
import { MAX_SEARCH_LENGTH, normalizeSearch, type SearchHit, trigramSearch } from './search.ts';
import type { HogFunction } from '../model.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';
import type { Store } from '../store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** order_by("execution_order", "-updated_at"): NULLs last, then the most recently updated first. */
const listOrder = (a: HogFunction, b: HogFunction) =>
  (a.executionOrder ?? Number.POSITIVE_INFINITY) - (b.executionOrder ?? Number.POSITIVE_INFINITY) ||
  b.updatedAtMicros - a.updatedAtMicros;

/** Postgres jsonb `@>`: what `filters__contains` asks. */
function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained))
    return Array.isArray(container) && contained.every((c) => container.some((x) => jsonContains(x, c)));
  if (typeof contained === 'object' && contained !== null)
    return (
      typeof container === 'object' &&
      container !== null &&
      !Array.isArray(container) &&
      Object.entries(contained).every(([k, v]) => jsonContains((container as Record<string, unknown>)[k], v))
    );
  return container === contained;
}

/** `filter_groups` (a JSON list) and `filters` (JSON), OR'ed as `filters__contains`. */
function filterGroups(query: URLSearchParams): unknown[] {
  const groups: unknown[] = [];
  const rawGroups = query.get('filter_groups');
  if (rawGroups) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawGroups);
    } catch {
      throw viewValidationError('filter_groups', 'Invalid filter_groups');
    }
    if (!Array.isArray(parsed)) throw viewValidationError('filter_groups', 'Invalid filter_groups');
    groups.push(...parsed);
  }
  const rawFilters = query.get('filters');
  if (rawFilters) {
    try {
      groups.push(JSON.parse(rawFilters));
    } catch {
      throw viewValidationError('filters', 'Invalid filters');
    }
  }
  return groups.filter(
    (g) =>
      g !== null && g !== undefined && g !== '' && !(typeof g === 'object' && Object.keys(g).length === 0),
  );
}

/**
 * HogFunctionFilterSet as django-filter reads it: an empty value filters nothing; `enabled` is
 * BooleanWidget's true/false (anything else filters nothing); `id` must be a UUID and
 * `created_by` a user, else the filter set's errors are a 400.
 */
function filterSet(store: Store, q: URLSearchParams) {
  const types = q.get('type') ? q.get('type')!.split(',') : undefined;
  const flag = q.get('enabled')?.toLowerCase();
  const enabled = flag === 'true' ? true : flag === 'false' ? false : null;
  const id = q.get('id') || null;
  if (id !== null && !UUID.test(id)) throw hogValidationError({ id: [fieldError('Enter a valid UUID.')] });
  const user = q.get('created_by') || null;
  if (user !== null && !(/^\d+$/.test(user) && store.users.has(Number(user))))
    throw hogValidationError({
      created_by: [
        fieldError(
          'Select a valid choice. That choice is not one of the available choices.',
          'invalid_choice',
        ),
      ],
    });
  return { types, enabled, id: id?.toLowerCase() ?? null, createdBy: user === null ? null : Number(user) };
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.list (safely_get_queryset, HogFunctionFilterSet)
export function listHogFunctions({ store, project, url }: RouteContext): Reply {
  const q = url.query;
  const search = q.get('search');
  if (search && search.length > MAX_SEARCH_LENGTH)
    throw viewValidationError('search', `Search query must be ${MAX_SEARCH_LENGTH} characters or fewer.`);
  const { types, enabled, id, createdBy } = filterSet(store, q);
  const groups = filterGroups(q);
  const listed = [...store.hogFunctions.values()]
    .filter((fn) => fn.projectId === project.id && !fn.deleted && fn.type !== 'warehouse_source_webhook')
    .filter((fn) => types === undefined || types.includes(fn.type))
    .filter((fn) => enabled === null || fn.enabled === enabled)
    .filter((fn) => id === null || fn.id === id)
    .filter((fn) => createdBy === null || fn.createdBy === createdBy)
    .filter((fn) => groups.length === 0 || groups.some((g) => jsonContains(fn.filters, g)));
  // apply_trigram_search leaves the rows unfiltered (and unannotated) when the term normalises to ''.
  const searching = search !== null && normalizeSearch(search) !== '';
  const hits: SearchHit[] = searching
    ? trigramSearch(listed, search)
    : listed.sort(listOrder).map((fn) => ({ fn, match: 'exact' as const }));
  const page = limitOffsetPage(hits, url);
  const full = q.get('full') === 'true';
  return ok({
    ...page,
    results: page.results.map((h) =>
      serializeHogFunction(store, h.fn, viewOf(store, full, searching ? h.match : undefined)),
    ),
  });
}
