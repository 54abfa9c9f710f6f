// A run's backfill, read with its page's other runs' backfills: one read of the export's
// backfills (PostHog's cursor list, newest first, 50 a page:
// products/batch_exports/backend/presentation/views/batch_export/backfills.py@7bcde34) answers
// every run of a page that a backfill started, instead of a retrieve per run. A backfill the
// first LIST_PAGES pages lack (an old one), or the only one a page names, is retrieved alone.
// The estimator prices the batch as a cross-link batch (schema/cost/fields.ts).
import DataLoader from 'dataloader';
import type { BatchExportBackfillRecord } from '../../upstream/posthog/records.ts';
import type { BatchExportKey, BatchExports } from './exports.ts';

export interface RunBackfillKey extends BatchExportKey {
  backfillUuid: string;
}

/** Pages of the export's backfills read for a batch, at most. */
const LIST_PAGES = 2;
/** Below this many distinct backfills of one export, a retrieve each is no more calls. */
const LIST_MIN_IDS = 2;
const exportOf = (k: BatchExportKey) => `${k.projectId}/${k.uuid}`;
const keyOf = (k: RunBackfillKey) => `${exportOf(k)}/${k.backfillUuid}`;

export class RunBackfills {
  private loader?: DataLoader<RunBackfillKey, BatchExportBackfillRecord, string>;

  constructor(private readonly exports: BatchExports) {}

  load(key: RunBackfillKey): Promise<BatchExportBackfillRecord> {
    this.loader ??= new DataLoader((keys) => this.readAll(keys), { cacheKeyFn: keyOf });
    return this.loader.load(key);
  }

  private async readAll(keys: readonly RunBackfillKey[]): Promise<(BatchExportBackfillRecord | Error)[]> {
    const byExport = new Map<string, RunBackfillKey[]>();
    for (const k of keys) byExport.set(exportOf(k), [...(byExport.get(exportOf(k)) ?? []), k]);
    const listed = new Map<string, BatchExportBackfillRecord>();
    await Promise.all(
      [...byExport.values()]
        .filter((group) => new Set(group.map((k) => k.backfillUuid)).size >= LIST_MIN_IDS)
        // A failed list read is no answer: each backfill is then retrieved, and fails, alone.
        .map((group) => this.readListed(group, listed).catch(() => undefined)),
    );
    return Promise.all(
      keys.map((k) => {
        const found = listed.get(keyOf(k));
        if (found) return found;
        return this.exports.backfill(k, k.backfillUuid).catch((error: Error) => error);
      }),
    );
  }

  /** The export's newest backfills, page by page, until every one wanted is found. */
  private async readListed(group: RunBackfillKey[], listed: Map<string, BatchExportBackfillRecord>) {
    const { projectId, uuid } = group[0]!;
    const wanted = new Set(group.map((k) => k.backfillUuid));
    let cursor: string | null = null;
    for (let pages = 0; pages < LIST_PAGES && wanted.size > 0; pages++) {
      const page = await this.exports.backfills({ projectId, uuid, cursor });
      for (const backfill of page.head(page.size)) {
        if (!wanted.delete(backfill.uuid)) continue;
        listed.set(keyOf({ projectId, uuid, backfillUuid: backfill.uuid }), backfill);
      }
      if (page.nextCursor === null || page.nextCursor === cursor) break;
      cursor = page.nextCursor;
    }
  }
}
