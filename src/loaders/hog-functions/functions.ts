// Hog functions as this request reads them (PostHog 2026, /api/projects/:id/hog_functions/):
// list pages (read with `full=true`, so a listed function carries every field and serves by-id
// reads), a function by UUID, its logs and its metrics. Several functions of one project asked
// for together (an activity page's cross-links) are read from list pages when that is fewer
// calls than a retrieve each.
import DataLoader from 'dataloader';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeHogFunction, normalizeHogFunctionLog } from '../../upstream/posthog/hog-functions.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { HogFunctionLogRecord, HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { normalizeOffsetPage, type OffsetPage } from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';

export interface HogFunctionKey {
  projectId: string;
  uuid: string;
}

export interface HogFunctionFilters {
  types?: readonly string[] | null;
  enabled?: boolean | null;
  search?: string | null;
}

export interface HogFunctionPageKey {
  projectId: string;
  limit: number;
  offset: number;
  filters: HogFunctionFilters;
}

export interface HogFunctionLogsKey extends HogFunctionKey {
  limit: number;
  /** Only logs older than this timestamp (the next page of a newest-first list). */
  before: string | null;
  levels: readonly string[] | null;
  search: string | null;
}

export interface HogFunctionLogPage {
  count: number | null;
  results: HogFunctionLogRecord[];
}

export interface HogFunctionMetricsKey extends HogFunctionKey {
  after: string | null;
  before: string | null;
  interval: string | null;
}

export interface HogFunctionMetricsRecord {
  labels: string[];
  series: { name: string; values: number[] }[];
}

/** Below this many functions of one project, one retrieve each beats reading a list page. */
const LIST_PREFETCH_MIN_IDS = 3;
const LIST_PAGE_SIZE = 100;
const hogKey = (key: HogFunctionKey) => `${key.projectId}/${key.uuid}`;

export class HogFunctions {
  /** Functions this request read in list pages, by project and UUID. */
  private readonly listed = new Map<string, HogFunctionRecord>();
  private pageLoader?: PerKeyLoader<HogFunctionPageKey, OffsetPage<HogFunctionRecord>, string>;
  private retrieveLoader?: PerKeyLoader<HogFunctionKey, HogFunctionRecord, string>;
  private viaListsLoader?: DataLoader<HogFunctionKey, HogFunctionRecord, string>;
  private logsLoader?: PerKeyLoader<HogFunctionLogsKey, HogFunctionLogPage, string>;
  private metricsLoader?: PerKeyLoader<HogFunctionMetricsKey, HogFunctionMetricsRecord, string>;

  constructor(private readonly upstream: CallerUpstream) {}

  /** A page of the project's functions, in the upstream's order. */
  page(key: HogFunctionPageKey): Promise<OffsetPage<HogFunctionRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ projectId, limit, offset, filters }: HogFunctionPageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctions(projectId),
        query: {
          limit,
          offset,
          full: 'true',
          type: filters.types?.length ? filters.types.join(',') : undefined,
          enabled: filters.enabled ?? undefined,
          search: filters.search ?? undefined,
        },
        parseAnswer: false,
      });
      return normalizeOffsetPage(
        answer,
        (raw) => normalizeHogFunction(raw, projectId),
        offset,
        PATHS.hogFunctions(projectId),
      );
    }, jsonKey);
    return this.pageLoader.load(key);
  }

  /**
   * A function by UUID: from a list page this request read, else a retrieve. `fromLists`: several
   * of one project asked for together are read from a list page when that is fewer calls.
   */
  load(key: HogFunctionKey, { fromLists = false } = {}): Promise<HogFunctionRecord> {
    if (fromLists) return this.viaLists().load(key);
    const listed = this.listed.get(hogKey(key));
    return listed ? Promise.resolve(listed) : this.retrieve().load(key);
  }

  /** After a write: the upstream's answer replaces what this request held. */
  replace(record: HogFunctionRecord): void {
    const key = { projectId: record.projectId, uuid: record.uuid };
    this.forget(key);
    this.retrieve().prime(key, record);
  }

  /** After a delete: nothing this request held about the function stands. */
  forget(key: HogFunctionKey): void {
    this.listed.delete(hogKey(key));
    this.retrieveLoader?.clear(key);
    this.viaListsLoader?.clear(key);
  }

  /** GET …/:id/logs/, newest first. */
  logs(key: HogFunctionLogsKey): Promise<HogFunctionLogPage> {
    this.logsLoader ??= perKeyLoader(async (k: HogFunctionLogsKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctionLogs(k.projectId, k.uuid),
        query: {
          limit: k.limit,
          before: k.before ?? undefined,
          level: k.levels?.length ? k.levels.join(',') : undefined,
          search: k.search ?? undefined,
        },
      });
      const body = (answer.body ?? {}) as { count?: unknown; results?: unknown };
      const results = Array.isArray(body.results) ? body.results.map(normalizeHogFunctionLog) : [];
      return { count: typeof body.count === 'number' ? body.count : null, results };
    }, jsonKey);
    return this.logsLoader.load(key);
  }

  /** GET …/:id/metrics/. */
  metrics(key: HogFunctionMetricsKey): Promise<HogFunctionMetricsRecord> {
    this.metricsLoader ??= perKeyLoader(async (k: HogFunctionMetricsKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctionMetrics(k.projectId, k.uuid),
        query: {
          after: k.after ?? undefined,
          before: k.before ?? undefined,
          interval: k.interval ?? undefined,
        },
      });
      return metricsOf(answer.body);
    }, jsonKey);
    return this.metricsLoader.load(key);
  }

  private retrieve(): PerKeyLoader<HogFunctionKey, HogFunctionRecord, string> {
    this.retrieveLoader ??= perKeyLoader(async (key: HogFunctionKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunction(key.projectId, key.uuid),
      });
      return normalizeHogFunction(answer.body, key.projectId);
    }, hogKey);
    return this.retrieveLoader;
  }

  private viaLists(): DataLoader<HogFunctionKey, HogFunctionRecord, string> {
    this.viaListsLoader ??= new DataLoader<HogFunctionKey, HogFunctionRecord, string>(
      async (keys) => {
        const byProject = new Map<string, string[]>();
        for (const k of keys) byProject.set(k.projectId, [...(byProject.get(k.projectId) ?? []), k.uuid]);
        // A failed list read is not an answer: each function is then read, and fails, on its own.
        await Promise.all([...byProject].map(([p, ids]) => this.readLists(p, ids).catch(() => undefined)));
        return Promise.all(keys.map((k) => this.load(k).catch((error: Error) => error)));
      },
      { cacheKeyFn: hogKey },
    );
    return this.viaListsLoader;
  }

  /** Reads list pages of the project when that is fewer calls than retrieving the unknown `ids`. */
  private async readLists(projectId: string, ids: string[]): Promise<void> {
    const unknown = ids.filter((uuid) => !this.listed.has(hogKey({ projectId, uuid })));
    if (unknown.length < LIST_PREFETCH_MIN_IDS) return;
    const first = await this.page({ projectId, limit: LIST_PAGE_SIZE, offset: 0, filters: {} });
    this.index(projectId, first);
    const missing = unknown.filter((uuid) => !this.listed.has(hogKey({ projectId, uuid })));
    const pagesLeft = Math.max(0, Math.ceil((first.count - LIST_PAGE_SIZE) / LIST_PAGE_SIZE));
    if (missing.length === 0 || pagesLeft >= missing.length) return;
    const rest = await Promise.all(
      Array.from({ length: pagesLeft }, (_, i) =>
        this.page({ projectId, limit: LIST_PAGE_SIZE, offset: (i + 1) * LIST_PAGE_SIZE, filters: {} }),
      ),
    );
    for (const page of rest) this.index(projectId, page);
  }

  private index(projectId: string, page: OffsetPage<HogFunctionRecord>): void {
    // A list whose count cannot be right is no answer (upstream/wire/pages.ts): this throws, and
    // nothing of it is kept.
    void page.count;
    for (let i = 0; page.has(i); i++) {
      try {
        const record = page.at(i);
        this.listed.set(hogKey({ projectId, uuid: record.uuid }), record);
      } catch {
        // A malformed entry serves no id: read by id, it is retrieved alone.
      }
    }
  }
}

function metricsOf(body: unknown): HogFunctionMetricsRecord {
  const w = (body ?? {}) as { labels?: unknown; series?: unknown };
  const labels = Array.isArray(w.labels) ? w.labels.map(String) : [];
  const series = Array.isArray(w.series)
    ? w.series.map((s) => {
        const one = (s ?? {}) as { name?: unknown; values?: unknown };
        return {
          name: String(one.name ?? ''),
          values: Array.isArray(one.values) ? one.values.map(Number).filter(Number.isFinite) : [],
        };
      })
    : [];
  return { labels, series };
}
