// The activity a write to a batch export leaves (products/batch_exports/backend/activity_logging.py
// at 3c53764, handle_batch_export_change): scope BatchExport, item_id the export's UUID, detail
// name "'<name>' (<type>)" (posthog/models/activity_logging/batch_export_utils.py) and a context
// naming the export and who created it. The receiver runs wherever the model is saved, so pause
// and unpause log too. Only top-level fields are compared: the destination is another row, so a
// change of its config (and its secrets) never shows in `changes`.
import type { BatchExport } from './model.ts';
import { formatTimestamp } from '../dialect.ts';
import type { ActivityChange } from '../model.ts';
import type { Store } from '../store.ts';

export function logBatchExportActivity(
  store: Store,
  userId: number | null,
  exp: BatchExport,
  activity: string,
  changes: ActivityChange[] | null,
  at: number,
): void {
  const creator = exp.createdBy === null ? undefined : store.users.get(exp.createdBy);
  const name = exp.name || 'Unnamed Export';
  store.pushActivity({
    projectId: exp.projectId,
    userId,
    is_system: false,
    activity,
    scope: 'BatchExport',
    item_id: exp.id,
    detail: {
      name: `'${name}' (${exp.destination.type})`,
      short_id: null,
      type: null,
      changes,
      trigger: null,
      context: {
        name,
        destination_type: exp.destination.type,
        interval: exp.interval,
        created_by_user_id: creator ? String(creator.id) : null,
        created_by_user_email: creator?.email ?? null,
        created_by_user_name: creator ? `${creator.first_name} ${creator.last_name}`.trim() : null,
      },
    },
    createdAtMicros: at,
  });
}

/** The fields whose change an `updated` entry lists, as the wire names and renders them. */
const COMPARED: [string, (e: BatchExport) => unknown][] = [
  ['name', (e) => e.name],
  ['model', (e) => e.model],
  ['interval', (e) => e.interval],
  // field_name_overrides (posthog/models/activity_logging/activity_log.py@7c88b78) shows `paused`
  // as `enabled`; the values stay the raw `paused` booleans.
  ['enabled', (e) => e.paused],
  ['deleted', (e) => e.deleted],
  ['last_paused_at', (e) => (e.lastPausedAtMicros === null ? null : formatTimestamp(e.lastPausedAtMicros))],
  ['start_at', (e) => (e.startAtMicros === null ? null : formatTimestamp(e.startAtMicros))],
  ['end_at', (e) => (e.endAtMicros === null ? null : formatTimestamp(e.endAtMicros))],
  ['filters', (e) => e.filters],
  ['timezone', (e) => e.timezone],
  ['interval_offset', (e) => e.intervalOffset],
  ['hogql_query', (e) => e.hogqlQuery],
];

/** changes_between(previous, current) over the compared fields. */
export function batchExportChanges(before: BatchExport, after: BatchExport): ActivityChange[] {
  const changes: ActivityChange[] = [];
  for (const [field, read] of COMPARED) {
    const [b, a] = [read(before), read(after)];
    if (JSON.stringify(b) !== JSON.stringify(a))
      changes.push({ type: 'BatchExport', action: 'changed', field, before: b, after: a });
  }
  return changes;
}
