// Project.destinations(search:, orderBy:): what a search keeps and how a sorted list is ordered.
//
// Search is PostHog's hog function search as far as the gateway can repeat it: PostHog searches
// a function's name and description, and a row is an `exact` match when either holds the term,
// any case (`icontains`); only when none is exact does it answer the trigram-`similar` rows
// (products/cdp/backend/api/hog_function.py@97b1610, HogFunctionViewSet._apply_search with
// NAME_FIELD and DESCRIPTION_FIELD; posthog/helpers/trigram_search.py@0b93401,
// apply_trigram_search, normalize_search_term, MAX_SEARCH_LENGTH). The gateway keeps the exact
// tier only, for every kind: the configs' and batch exports' lists have no search at all
// (posthog/api/plugin.py@fdc934b, PluginConfigViewSet; posthog/batch_exports/http.py@72adbb7,
// BatchExportViewSet: no filter backends), so the gateway filters them by the same rule, on name
// and description (a batch export has no description: its name only).
//
// A sorted list is ordered by its field, then by kind (hog functions, configs, batch exports),
// then by id, so the order is total and a position means the same item on every page; DESC is
// the exact reverse of ASC. A null name or time sorts after every value under ASC.
import type { DestinationKind, DestinationRecord } from './destinations.ts';

/** PostHog's bound on `?search=`, kept for every kind. */
export const MAX_DESTINATION_SEARCH = 200;

export const DESTINATION_ORDER_FIELDS = ['NAME', 'UPDATED_AT', 'KIND'] as const;
export type DestinationOrderField = (typeof DESTINATION_ORDER_FIELDS)[number];
export type Direction = 'ASC' | 'DESC';
export interface DestinationOrder {
  field: DestinationOrderField;
  direction: Direction;
}

/** normalize_search_term: no NUL bytes, no surrounding whitespace; null when nothing is left. */
export function normalizeSearch(search: string | null | undefined): string | null {
  const term = search?.replaceAll('\0', '').trim() ?? '';
  return term === '' ? null : term;
}

const holds = (text: string | null | undefined, needle: string) =>
  typeof text === 'string' && text.toLowerCase().includes(needle);

/** Whether the destination is an exact match of `term`: its name or description holds it, any case. */
export function matchesSearch(d: DestinationRecord, term: string): boolean {
  const needle = term.toLowerCase();
  if (holds(d.name, needle)) return true;
  return d.__typename !== 'BatchExport' && holds(d.description, needle);
}

export const kindOfRecord = (d: DestinationRecord): DestinationKind =>
  d.__typename === 'HogFunction'
    ? 'HOG_FUNCTION'
    : d.__typename === 'BatchExport'
      ? 'BATCH_EXPORT'
      : 'PLUGIN_CONFIG';

const KIND_RANK: Record<DestinationKind, number> = { HOG_FUNCTION: 0, PLUGIN_CONFIG: 1, BATCH_EXPORT: 2 };

const idOf = (d: DestinationRecord): string | number =>
  d.__typename === 'DestinationConfig' ? d.databaseId : d.uuid;

/** Values first, nulls last; strings by code unit after lowercasing, then as written. */
function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [la, lb] = [String(a).toLowerCase(), String(b).toLowerCase()];
  if (la !== lb) return la < lb ? -1 : 1;
  return String(a) < String(b) ? -1 : 1;
}

function fieldValue(d: DestinationRecord, field: DestinationOrderField): string | number | null {
  if (field === 'NAME') return d.name ?? null;
  if (field === 'KIND') return KIND_RANK[kindOfRecord(d)];
  const at = d.updatedAt === null ? Number.NaN : Date.parse(d.updatedAt);
  return Number.isNaN(at) ? null : at;
}

/** The destinations in `order`: a total order (field, kind, id), DESC its reverse. */
export function sortDestinations(items: DestinationRecord[], order: DestinationOrder): DestinationRecord[] {
  const sign = order.direction === 'DESC' ? -1 : 1;
  const keyed = items.map((d) => ({
    d,
    value: fieldValue(d, order.field),
    rank: KIND_RANK[kindOfRecord(d)],
  }));
  keyed.sort(
    (a, b) =>
      sign * (compareValues(a.value, b.value) || a.rank - b.rank || compareValues(idOf(a.d), idOf(b.d))),
  );
  return keyed.map((k) => k.d);
}
