// The activity log endpoints: the cursor list, the bookmark and important changes.
import { listActivity2026 } from './2026.ts';
import { notFound, validationError } from '../http/api-error.ts';
import { serializeEntry } from '../dialect.ts';
import { cursorPage } from '../http/pagination.ts';
import { empty, ok, type Reply, type RouteContext } from '../http/reply.ts';
import type { Store } from '../store.ts';

function projectActivityNewestFirst(store: Store, projectId: number) {
  return store.activity
    .filter((e) => e.projectId === projectId)
    .sort((a, b) => b.createdAtMicros - a.createdAtMicros);
}

// posthog/api/activity_log.py (2024) / posthog/api/advanced_activity_logs/viewset.py (2026), ActivityLogViewSet.list
export function listActivity(ctx: RouteContext): Reply {
  if (ctx.dialect === 'posthog-2026') return listActivity2026(ctx);
  const { store, project, url } = ctx;
  let entries = projectActivityNewestFirst(store, project.id);
  const user = url.query.get('user');
  if (user !== null) {
    if (!/^\d+$/.test(user)) throw validationError('user', 'invalid_input', 'A valid integer is required.');
    entries = entries.filter((e) => e.userId === Number(user));
  }
  const scope = url.query.get('scope');
  if (scope !== null) entries = entries.filter((e) => e.scope === scope);
  const itemId = url.query.get('item_id');
  if (itemId !== null) entries = entries.filter((e) => e.item_id === itemId);
  const page = cursorPage(entries, (e) => e.createdAtMicros, url);
  // The list never computes `unread`; only important_changes does.
  return ok({ ...page, results: page.results.map((e) => serializeEntry(store, e, false)) });
}

function parseBookmark(value: unknown): number {
  const millis = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(millis)) {
    throw validationError(null, 'invalid_input', 'must provide a valid bookmark date');
  }
  return millis * 1000;
}

// posthog/api/activity_log.py (2024), ActivityLogViewSet.bookmark_activity_notification (gone in 2026)
export function bookmark({ store, dialect, key, project, body }: RouteContext): Reply {
  const raw = body.data.bookmark ?? (dialect === 'spec' ? body.data.created_at : undefined);
  if (raw === undefined || raw === null)
    throw validationError(null, 'invalid_input', 'must provide a bookmark date');
  const at = parseBookmark(raw);
  store.users.get(key.userId)!.lastViewedActivityMicros.set(project.id, at);
  if (dialect === 'posthog') return empty(204);
  const newest = projectActivityNewestFirst(store, project.id)[0];
  if (!newest) throw notFound();
  return ok(serializeEntry(store, newest, false));
}

const IMPORTANT_CHANGES_LIMIT = 10;

/** Changes by someone else (another user or the system), newest first, unread after the bookmark. */
// posthog/api/activity_log.py (2024), ActivityLogViewSet.important_changes (gone in 2026)
export function importantChanges({ store, dialect, key, project, url }: RouteContext): Reply {
  const lastRead = store.users.get(key.userId)!.lastViewedActivityMicros.get(project.id) ?? null;
  const isUnread = (micros: number) => lastRead === null || micros > lastRead;
  let entries = projectActivityNewestFirst(store, project.id).filter((e) => e.userId !== key.userId);
  if (url.query.get('unread') === 'true') entries = entries.filter((e) => isUnread(e.createdAtMicros));
  const results = entries
    .slice(0, IMPORTANT_CHANGES_LIMIT)
    .map((e) => serializeEntry(store, e, isUnread(e.createdAtMicros)));
  if (dialect === 'spec') {
    if (!results[0]) throw notFound();
    return ok(results[0]);
  }
  return ok({ results, last_read: lastRead === null ? null : new Date(lastRead / 1000).toISOString() });
}
