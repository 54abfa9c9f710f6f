// Batch exports as this request reads them (PostHog 2026, /api/projects/:id/batch_exports/,
// products/batch_exports/backend/presentation/views/batch_export/): list pages (limit/offset; PostHog
// leaves out deleted exports and its internal Workflows type), an export by UUID, its runs
// (cursor pages of 100, windowed by PostHog to the last 7 days unless `after` says otherwise) and
// its backfills (cursor pages of 50). Several exports of one project asked for together (an
// activity page's cross-links) are read from list pages when that is fewer calls.
import DataLoader from 'dataloader';
import type { CallerUpstream } from '../../upstream/call.ts';
import {
  normalizeBatchExport,
  normalizeBatchExportBackfill,
  normalizeBatchExportRun,
} from '../../upstream/posthog/batch-exports.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type {
  BatchExportBackfillRecord,
  BatchExportRecord,
  BatchExportRunRecord,
} from '../../upstream/posthog/records.ts';
import {
  type CursorPage,
  normalizeCursorPage,
  normalizeOffsetPage,
  type OffsetPage,
} from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';

export interface BatchExportKey {
  projectId: string;
  uuid: string;
}

export interface BatchExportPageKey {
  projectId: string;
  limit: number;
  offset: number;
}

export interface RunFilters {
  statuses: readonly string[] | null;
  /** ISO date-times: PostHog's `after` (default: 7 days ago) and `before`. */
  since: string | null;
  until: string | null;
}

export interface RunPageKey extends BatchExportKey {
  cursor: string | null;
  filters: RunFilters;
}

export interface BackfillPageKey extends BatchExportKey {
  cursor: string | null;
}

/** PostHog's internal destination type for hog function backfills: never a user's destination. */
export const INTERNAL_DESTINATION_TYPE = 'Workflows';
const LIST_PAGE_SIZE = 100;
/** Below this many exports of one project, one retrieve each beats reading a list page. */
const LIST_PREFETCH_MIN_IDS = 3;
const exportKey = (key: BatchExportKey) => `${key.projectId}/${key.uuid}`;

export class BatchExports {
  private readonly listed = new Map<string, BatchExportRecord>();
  private pageLoader?: PerKeyLoader<BatchExportPageKey, OffsetPage<BatchExportRecord>, string>;
  private retrieveLoader?: PerKeyLoader<BatchExportKey, BatchExportRecord, string>;
  private viaListsLoader?: DataLoader<BatchExportKey, BatchExportRecord, string>;
  private runPages?: PerKeyLoader<RunPageKey, CursorPage<BatchExportRunRecord>, string>;
  private backfillPages?: PerKeyLoader<BackfillPageKey, CursorPage<BatchExportBackfillRecord>, string>;
  private runLoader?: PerKeyLoader<BatchExportKey & { runUuid: string }, BatchExportRunRecord, string>;
  private backfillLoader?: PerKeyLoader<
    BatchExportKey & { backfillUuid: string },
    BatchExportBackfillRecord,
    string
  >;

  constructor(private readonly upstream: CallerUpstream) {}

  /** A page of the project's exports, newest first. */
  page(key: BatchExportPageKey): Promise<OffsetPage<BatchExportRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ projectId, limit, offset }: BatchExportPageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExports(projectId),
        query: { limit, offset },
        parseAnswer: false,
      });
      const page = normalizeOffsetPage(
        answer,
        (raw) => normalizeBatchExport(raw, projectId),
        offset,
        PATHS.batchExports(projectId),
      );
      return page;
    }, jsonKey);
    return this.pageLoader.load(key);
  }

  /** An export by UUID: from a list page this request read, else a retrieve. */
  load(key: BatchExportKey, { fromLists = false } = {}): Promise<BatchExportRecord> {
    if (fromLists) return this.viaLists().load(key);
    const listed = this.listed.get(exportKey(key));
    return listed ? Promise.resolve(listed) : this.retrieve().load(key);
  }

  /** After a write: the upstream's answer replaces what this request held. */
  replace(record: BatchExportRecord): void {
    const key = { projectId: record.projectId, uuid: record.uuid };
    this.forget(key);
    this.retrieve().prime(key, record);
  }

  /** After a write whose answer is not the export: nothing this request held about it stands. */
  forget(key: BatchExportKey): void {
    this.listed.delete(exportKey(key));
    this.retrieveLoader?.clear(key);
    this.viaListsLoader?.clear(key);
    this.pageLoader = undefined;
  }

  /** GET …/runs/: a cursor page, newest first. */
  runs(key: RunPageKey): Promise<CursorPage<BatchExportRunRecord>> {
    this.runPages ??= perKeyLoader(async (k: RunPageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExportRuns(k.projectId, k.uuid),
        query: {
          cursor: k.cursor ?? undefined,
          status: k.filters.statuses?.length ? k.filters.statuses : undefined,
          after: k.filters.since ?? undefined,
          before: k.filters.until ?? undefined,
        },
        parseAnswer: false,
      });
      return normalizeCursorPage(
        answer,
        (raw) => normalizeBatchExportRun(raw, k.projectId, k.uuid),
        PATHS.batchExportRuns(k.projectId, k.uuid),
      );
    }, jsonKey);
    return this.runPages.load(key);
  }

  /** GET …/backfills/: a cursor page, newest first. */
  backfills(key: BackfillPageKey): Promise<CursorPage<BatchExportBackfillRecord>> {
    this.backfillPages ??= perKeyLoader(async (k: BackfillPageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExportBackfills(k.projectId, k.uuid),
        query: { cursor: k.cursor ?? undefined, ordering: '-created_at' },
        parseAnswer: false,
      });
      return normalizeCursorPage(
        answer,
        (raw) => normalizeBatchExportBackfill(raw, k.projectId, k.uuid),
        PATHS.batchExportBackfills(k.projectId, k.uuid),
      );
    }, jsonKey);
    return this.backfillPages.load(key);
  }

  /** GET …/runs/:run_id/ (PostHog applies the list's 7-day window here too: older is 404). */
  run(key: BatchExportKey, runUuid: string): Promise<BatchExportRunRecord> {
    this.runLoader ??= perKeyLoader(async (k: BatchExportKey & { runUuid: string }) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExportRun(k.projectId, k.uuid, k.runUuid),
        // Wide enough for any run the export can have: the window is a list default, not a limit.
        query: { after: '1970-01-01T00:00:00Z' },
      });
      return normalizeBatchExportRun(answer.body, k.projectId, k.uuid);
    }, jsonKey);
    return this.runLoader.load({ ...key, runUuid });
  }

  /** GET …/backfills/:backfill_id/. */
  backfill(key: BatchExportKey, backfillUuid: string): Promise<BatchExportBackfillRecord> {
    this.backfillLoader ??= perKeyLoader(async (k: BatchExportKey & { backfillUuid: string }) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExportBackfill(k.projectId, k.uuid, k.backfillUuid),
      });
      return normalizeBatchExportBackfill(answer.body, k.projectId, k.uuid);
    }, jsonKey);
    return this.backfillLoader.load({ ...key, backfillUuid });
  }

  private retrieve(): PerKeyLoader<BatchExportKey, BatchExportRecord, string> {
    this.retrieveLoader ??= perKeyLoader(async (key: BatchExportKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.batchExport(key.projectId, key.uuid),
      });
      return normalizeBatchExport(answer.body, key.projectId);
    }, exportKey);
    return this.retrieveLoader;
  }

  private viaLists(): DataLoader<BatchExportKey, BatchExportRecord, string> {
    this.viaListsLoader ??= new DataLoader<BatchExportKey, BatchExportRecord, string>(
      async (keys) => {
        const byProject = new Map<string, number>();
        for (const k of keys) byProject.set(k.projectId, (byProject.get(k.projectId) ?? 0) + 1);
        // A failed list read is not an answer: each export is then read, and fails, on its own.
        await Promise.all(
          [...byProject]
            .filter(([, count]) => count >= LIST_PREFETCH_MIN_IDS)
            .map(([projectId]) => this.readFirstPage(projectId).catch(() => undefined)),
        );
        return Promise.all(keys.map((k) => this.load(k).catch((error: Error) => error)));
      },
      { cacheKeyFn: exportKey },
    );
    return this.viaListsLoader;
  }

  /** The project's newest exports: most teams have fewer than a page of them. */
  private async readFirstPage(projectId: string): Promise<void> {
    const page = await this.page({ projectId, limit: LIST_PAGE_SIZE, offset: 0 });
    // A list whose count cannot be right is no answer (upstream/wire/pages.ts): this throws, and
    // nothing of it is kept.
    void page.count;
    for (let i = 0; page.has(i); i++) {
      try {
        const record = page.at(i);
        this.listed.set(exportKey({ projectId, uuid: record.uuid }), record);
      } catch {
        // A malformed entry serves no id: read by id, it is retrieved alone.
      }
    }
  }
}
