// One DataLoader per upstream resource, created for every GraphQL request and never shared:
// what one caller's key fetched is never served to another. Loaders dedupe identical reads
// within a request, and list answers prime the by-id loader so a config listed once is not
// fetched again (fields a list answer does not carry are fetched through `retrieveConfig`).
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import { CURRENT_PROJECT } from '../ids.ts';
import type { CallerUpstream } from '../upstream/client.ts';
import { PATHS } from '../upstream/paths.ts';
import {
  type ActivityEntryRecord,
  type ConfigRecord,
  type CursorPage,
  normalizeConfig,
  normalizeCursorPage,
  normalizeEntry,
  normalizeImportantChanges,
  normalizeOffsetPage,
  normalizeProject,
  type OffsetPage,
  type ProjectRecord,
} from '../upstream/types.ts';
import { configKey, ListedConfigs } from './listed-configs.ts';

/** Below this many configs of one project, one retrieve each beats reading list pages. */
const LIST_PREFETCH_MIN_IDS = 3;
const LIST_PAGE_SIZE = 100;

export interface ConfigKey {
  projectId: string;
  id: number;
}

export interface PageKey {
  limit: number;
  offset: number;
}

export interface ActivityFilters {
  scope?: string | null;
  itemId?: string | null;
  userId?: number | null;
}

export interface ActivityPageKey {
  projectId: string;
  cursor: string | null;
  filters: ActivityFilters;
}

export interface FrontendRecord {
  contentType: string;
  config: ConfigRecord | null;
  source: string | null;
}

export interface ImportantChangesRecord {
  entries: ActivityEntryRecord[];
  lastRead: string | null;
}

const jsonKey = (key: unknown) => JSON.stringify(key);

/**
 * A batch function for an upstream with no batch endpoints: one request per key. Loaders built
 * on it set `batch: false`: they still dedupe and cache, and skip the tick a batch waits for.
 */
function eachKey<K, V>(load: (key: K) => Promise<V>) {
  const settle = (key: K) => load(key).catch((error: Error) => error);
  // With `batch: false` every batch is one key: no array of promises to wait on.
  return (keys: readonly K[]) =>
    keys.length === 1 ? settle(keys[0]!).then((value) => [value]) : Promise.all(keys.map(settle));
}

/** A value made on first use: most requests need few of the loaders. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

export function createLoaders(upstream: CallerUpstream) {
  type Query = Record<string, string | number | undefined>;
  /** The whole answer of a GET: its body (unless `parseAnswer` is false), content type and chunks. */
  const answerOf = (path: string, query?: Query, parseAnswer = true) =>
    upstream.request({ method: 'GET', path, query, parseAnswer });
  const get = async (path: string, query?: Query) => (await answerOf(path, query)).body;

  /**
   * What `@current` stands for in this request, once known. Global ids and cursors never hold
   * `@current` (it means another project for another key), so it is resolved when one is needed:
   * from the team_id of a config read through it, else by GET /api/projects/@current/.
   */
  let currentProjectId: string | null = null;
  const learnProject = (record: ConfigRecord) => {
    if (record.projectId === CURRENT_PROJECT && currentProjectId === null && record.teamId !== null) {
      currentProjectId = String(record.teamId);
    }
    return record;
  };

  /** What `@current` stands for, from the team of a list page's first config. */
  const learnProjectFrom = (page: OffsetPage<ConfigRecord>) => {
    try {
      if (page.has(0)) page.at(0); // normalising it learns the project
    } catch {
      // A malformed first entry tells nothing here; it fails, alone, where a field reads it.
    }
  };

  /** Always a GET of the config itself: the one answer that carries every field. */
  const retrieveConfig = lazy(
    () =>
      new DataLoader<ConfigKey, ConfigRecord, string>(
        eachKey(async (key) =>
          learnProject(
            normalizeConfig(await get(PATHS.config(key.projectId, key.id)), key.projectId, 'retrieve'),
          ),
        ),
        { batch: false, cacheKeyFn: configKey },
      ),
  );

  /** Configs this request has seen in list answers. */
  const listed = new ListedConfigs();
  /** List pages in flight, per project: a by-id read waits for them before retrieving. */
  const pendingLists = new Map<string, Set<Promise<unknown>>>();

  /**
   * A config from whatever this request already holds (a list answer, a write), else a
   * retrieve. GraphQL resolves sibling fields concurrently, so a config and a list holding it
   * are often asked for in the same tick: the batch waits for that project's in-flight lists.
   */
  const config = lazy(
    () =>
      new DataLoader<ConfigKey, ConfigRecord, string>(
        async (keys) => {
          // Most requests have no list in flight: then there is nothing to wait for.
          if (pendingLists.size > 0) {
            const projects = new Set(keys.map((k) => k.projectId));
            await Promise.allSettled([...projects].flatMap((p) => [...(pendingLists.get(p) ?? [])]));
          }
          return Promise.all(
            keys.map((key) => {
              const record = listed.get(configKey(key));
              if (record !== undefined) return record;
              return retrieveConfig()
                .load(key)
                .catch((error: Error) => error);
            }),
          );
        },
        { cacheKeyFn: configKey },
      ),
  );

  /** After a write: the upstream's answer replaces whatever this request held. */
  const replaceConfig = (record: ConfigRecord) => {
    learnProject(record);
    const key = { projectId: record.projectId, id: record.databaseId };
    forgetConfig(key);
    config().prime(key, record);
  };

  /** After a delete, or before a re-read: nothing this request held about the config stands. */
  const forgetConfig = (key: ConfigKey) => {
    listed.forget(configKey(key));
    retrieveConfig().clear(key);
    config().clear(key);
  };

  const configPage = lazy(
    () =>
      new DataLoader<PageKey & { projectId: string }, OffsetPage<ConfigRecord>, string>(
        eachKey(async ({ projectId, limit, offset }) => {
          const answer = await answerOf(PATHS.configs(projectId), { limit, offset }, false);
          const page = normalizeOffsetPage(answer, (raw) =>
            learnProject(normalizeConfig(raw, projectId, 'list')),
          );
          listed.add(projectId, page);
          if (projectId === CURRENT_PROJECT) learnProjectFrom(page);
          return page;
        }),
        { batch: false, cacheKeyFn: jsonKey },
      ),
  );

  /** A page of a project's configs; registered as in flight until it settles. */
  const listConfigs = (key: PageKey & { projectId: string }) => {
    const promise = configPage().load(key);
    const pending = pendingLists.get(key.projectId) ?? new Set();
    pendingLists.set(key.projectId, pending.add(promise));
    const settle = () => {
      pending.delete(promise);
      if (pending.size === 0 && pendingLists.get(key.projectId) === pending)
        pendingLists.delete(key.projectId);
    };
    promise.then(settle, settle);
    return promise;
  };

  /** Settles when no list page of the project is in flight. */
  const listsSettled = async (projectId: string) => {
    await Promise.allSettled([...(pendingLists.get(projectId) ?? [])]);
  };

  /**
   * Many configs of one project cost fewer calls as list pages (100 a page) than as one retrieve
   * each. Read the first page; read the rest only when fewer pages remain than ids still missing.
   * What the pages do not hold (PostHog lists no soft-deleted config) is then retrieved alone.
   */
  const readFromLists = async (projectId: string, ids: number[]) => {
    // Lists this request already holds or is reading count first.
    await listsSettled(projectId);
    const unknown = ids.filter((id) => !listed.has(configKey({ projectId, id })));
    if (unknown.length < LIST_PREFETCH_MIN_IDS) return;
    const first = await listConfigs({ projectId, limit: LIST_PAGE_SIZE, offset: 0 });
    const missing = unknown.filter((id) => !listed.has(configKey({ projectId, id })));
    const pagesLeft = Math.max(0, Math.ceil((first.count - LIST_PAGE_SIZE) / LIST_PAGE_SIZE));
    if (missing.length === 0 || pagesLeft >= missing.length) return;
    await Promise.all(
      Array.from({ length: pagesLeft }, (_, i) =>
        listConfigs({ projectId, limit: LIST_PAGE_SIZE, offset: (i + 1) * LIST_PAGE_SIZE }),
      ),
    );
  };

  /**
   * Configs as `config` gives them, but a batch that needs several configs of one project reads
   * list pages when that is fewer calls. For selections with no field that lists leave out
   * (pluginInfo): those need a retrieve of each config anyway.
   */
  const configFromLists = lazy(
    () =>
      new DataLoader<ConfigKey, ConfigRecord, string>(
        async (keys) => {
          const byProject = new Map<string, number[]>();
          for (const key of keys)
            byProject.set(key.projectId, [...(byProject.get(key.projectId) ?? []), key.id]);
          await Promise.all(
            [...byProject].map(([projectId, ids]) =>
              // A failed list read is not an answer: each config is then read, and fails, on its own.
              readFromLists(projectId, ids).catch(() => undefined),
            ),
          );
          return config().loadMany(keys);
        },
        { cacheKeyFn: configKey },
      ),
  );

  const project = lazy(
    () =>
      new DataLoader<string, ProjectRecord>(
        eachKey(async (projectId) => normalizeProject(await get(PATHS.project(projectId)), projectId)),
        { batch: false },
      ),
  );

  /** The numeric id of a project as addressed; only `@current` may cost a call, once a request. */
  const numericProjectId = (projectId: string): string | Promise<string> => {
    if (projectId !== CURRENT_PROJECT) return projectId;
    if (currentProjectId !== null) return currentProjectId;
    return project()
      .load(CURRENT_PROJECT)
      .then((record) => (currentProjectId ??= record.id!));
  };

  /**
   * The project a list's cursors name: the numeric id, or `@current` itself for a key that may
   * read the list but not the project (a key with `activity_log:read` alone): its cursors then
   * page only lists read through `@current`.
   */
  const cursorProjectId = (projectId: string): string | Promise<string> => {
    const id = numericProjectId(projectId);
    if (!(id instanceof Promise)) return id;
    return id.catch((error: unknown) => {
      if (error instanceof GraphQLError && error.extensions.code === 'FORBIDDEN') return projectId;
      throw error;
    });
  };

  const projectPage = lazy(
    () =>
      new DataLoader<PageKey, OffsetPage<ProjectRecord>, string>(
        eachKey(async ({ limit, offset }) => {
          const answer = await answerOf(PATHS.projects(), { limit, offset }, false);
          const page = normalizeOffsetPage(answer, (raw) => normalizeProject(raw));
          // A page of projects is short, and each primes the by-id loader: read them all.
          for (const record of page.head(limit)) project().prime(record.projectId, record);
          return page;
        }),
        { batch: false, cacheKeyFn: jsonKey },
      ),
  );

  const activityPage = lazy(
    () =>
      new DataLoader<ActivityPageKey, CursorPage<ActivityEntryRecord>, string>(
        eachKey(async ({ projectId, cursor, filters }) => {
          const answer = await answerOf(
            PATHS.activityLog(projectId),
            {
              cursor: cursor ?? undefined,
              scope: filters.scope ?? undefined,
              item_id: filters.itemId ?? undefined,
              user: filters.userId ?? undefined,
            },
            false,
          );
          return normalizeCursorPage(answer, (raw) => normalizeEntry(raw, projectId));
        }),
        { batch: false, cacheKeyFn: jsonKey },
      ),
  );

  const importantChanges = lazy(
    () =>
      new DataLoader<{ projectId: string; unreadOnly: boolean }, ImportantChangesRecord, string>(
        eachKey(async ({ projectId, unreadOnly }) =>
          normalizeImportantChanges(
            await get(PATHS.importantChanges(projectId), { unread: unreadOnly ? 'true' : undefined }),
            projectId,
          ),
        ),
        { batch: false, cacheKeyFn: jsonKey },
      ),
  );

  const frontend = lazy(
    () =>
      new DataLoader<ConfigKey, FrontendRecord, string>(
        eachKey(async (key) => {
          const answer = await answerOf(PATHS.configFrontend(key.projectId, key.id));
          const isJsonObject = answer.body !== null && typeof answer.body === 'object';
          return {
            contentType: answer.contentType || 'application/octet-stream',
            config: isJsonObject ? normalizeConfig(answer.body, key.projectId, 'frontend') : null,
            source: typeof answer.body === 'string' ? answer.body : null,
          };
        }),
        { batch: false, cacheKeyFn: configKey },
      ),
  );

  // Getters: a loader is made when a resolver first asks for it.
  return {
    get config() {
      return config();
    },
    get retrieveConfig() {
      return retrieveConfig();
    },
    replaceConfig,
    forgetConfig,
    listConfigs,
    get configFromLists() {
      return configFromLists();
    },
    get project() {
      return project();
    },
    numericProjectId,
    cursorProjectId,
    get projectPage() {
      return projectPage();
    },
    get activityPage() {
      return activityPage();
    },
    get importantChanges() {
      return importantChanges();
    },
    get frontend() {
      return frontend();
    },
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
