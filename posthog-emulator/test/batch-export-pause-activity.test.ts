// What pausing and deleting a batch export log in the 2026 dialect. The activity log names the
// field `paused` as `enabled` (ActivityLog's field_name_overrides, posthog/models/activity_logging/
// activity_log.py@7c88b78), the values staying the raw `paused` booleans; and delete_batch_export
// (products/batch_exports/backend/service.py@02b1f51) pauses a running export first, through
// pause_batch_export's own save, before the soft delete's save: two entries.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { EXPORTS, exportId, S3 } from './batch-export-fixtures.ts';
import { rest } from './rest.ts';

type Changes = { changes: { field: string; before: unknown; after: unknown }[] };

describe('batch export pause and delete activity, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());
  const changesOf = (n: number) => (upstream.store.activity.at(n)!.detail as Changes).changes;

  it('names the pause `enabled`, with the raw `paused` values', async () => {
    await rest(upstream, 'POST', `${EXPORTS}${S3}/pause/`);
    expect(changesOf(-1)[0]).toMatchObject({ field: 'enabled', before: false, after: true });
    await rest(upstream, 'POST', `${EXPORTS}${S3}/unpause/`);
    expect(changesOf(-1)).toEqual([
      { type: 'BatchExport', action: 'changed', field: 'enabled', before: true, after: false },
    ]);
  });

  it('logs a pause, then the delete, when a running export is deleted', async () => {
    const before = upstream.store.activity.length;
    expect((await rest(upstream, 'DELETE', `${EXPORTS}${S3}/`)).status).toBe(204);
    expect(upstream.store.activity.length).toBe(before + 2);
    expect(changesOf(-2).map((c) => c.field)).toEqual(['enabled', 'last_paused_at']);
    expect(changesOf(-1).map((c) => c.field)).toEqual(['deleted']);
    expect(upstream.store.activity.slice(-2).map((e) => e.activity)).toEqual(['updated', 'updated']);
  });

  it('logs only the delete for an export already paused', async () => {
    const paused = [...upstream.store.batchExports.exports.values()].find((e) => e.paused && !e.deleted)!;
    const before = upstream.store.activity.length;
    expect((await rest(upstream, 'DELETE', `${EXPORTS}${paused.id}/`)).status).toBe(204);
    expect(upstream.store.activity.length).toBe(before + 1);
    expect(changesOf(-1).map((c) => c.field)).toEqual(['deleted']);
    expect(exportId(5)).toBe(paused.id);
  });
});
