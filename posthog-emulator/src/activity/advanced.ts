// posthog/api/advanced_activity_logs/viewset.py@1b10cf8, AdvancedActivityLogsViewSet.list: the
// activity log's pages (activity-2026.ts) filtered by
// AdvancedActivityLogFiltersSerializer(data=request.query_params), as
// AdvancedActivityLogFilterManager.apply_filters applies it (filters.py@072764f): `start_date`
// (created_at >= it) and `end_date` (<= it), `users` (user UUIDs), `scopes`, `activities`,
// `search_text` (detail::text icontains), `item_ids` and `clients`, ANDed; an empty list filters
// nothing. The lists are JSONTolerantListFields: repeated parameters (DRF's getlist) or one JSON
// array; a comma list is one value (`item_ids=64,65` is the id "64,65", which matches nothing).
// Not modelled: detail_filters, ip_addresses, was_impersonated, is_system, schema=ocsf.

import { pagedActivity } from './2026.ts';
import { validationError } from '../http/api-error.ts';
import type { ActivityEntry } from '../model.ts';
import type { Reply, RouteContext } from '../http/reply.ts';

export function listAdvancedActivity(ctx: RouteContext): Reply {
  const q = ctx.url.query;
  const scopes = tolerantList(q, 'scopes');
  const itemIds = tolerantList(q, 'item_ids');
  const activities = tolerantList(q, 'activities');
  const clients = tolerantList(q, 'clients');
  const users = tolerantList(q, 'users');
  const since = dateParam(q, 'start_date');
  const until = dateParam(q, 'end_date');
  const search = q.get('search_text')?.toLowerCase() || null;
  const uuidOf = (e: ActivityEntry) => (e.userId === null ? null : ctx.store.users.get(e.userId)?.uuid);
  const entries = ctx.store.activity.filter(
    (e) =>
      e.projectId === ctx.project.id &&
      (since === null || e.createdAtMicros >= since) &&
      (until === null || e.createdAtMicros <= until) &&
      (users.size === 0 || users.has(uuidOf(e) ?? '')) &&
      (scopes.size === 0 || scopes.has(e.scope)) &&
      (activities.size === 0 || activities.has(e.activity)) &&
      (search === null || detailText(e.detail).includes(search)) &&
      (itemIds.size === 0 || (e.item_id !== null && itemIds.has(String(e.item_id)))) &&
      (clients.size === 0 || (e.client != null && clients.has(e.client))),
  );
  return pagedActivity(ctx, entries);
}

/** JSONTolerantListField.get_value: every value of `key`, or one JSON array's items. */
export function tolerantList(query: URLSearchParams, key: string): Set<string> {
  const given = query.getAll(key);
  const only = given.length === 1 ? given[0]!.trim() : '';
  if (only.startsWith('[') && only.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(only);
      if (Array.isArray(parsed)) return new Set(parsed.map(String));
    } catch {
      // Not JSON: the value as it is, as PostHog takes it.
    }
  }
  return new Set(given);
}

/** A DateTimeField: an ISO 8601 time, else DRF's 400 on the field; absent or empty: no bound. */
function dateParam(query: URLSearchParams, key: string): number | null {
  const text = query.get(key);
  if (!text) return null;
  const millis = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(millis))
    throw validationError(
      key,
      'invalid',
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    );
  // Microseconds past the millisecond, as PostHog's DateTimeField keeps them.
  const fraction = /\.(\d{4,6})/.exec(text)?.[1];
  return millis * 1000 + (fraction ? Number(fraction.padEnd(6, '0').slice(3)) : 0);
}

/**
 * `detail::text` lower-cased, for `icontains`: Postgres writes a jsonb value with a space after
 * each `:` and `,` (its key order, shorter keys first, is not modelled).
 */
const detailText = (detail: unknown) => jsonbText(detail ?? null).toLowerCase();

function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${jsonbText(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}
