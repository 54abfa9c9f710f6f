// A project's configs as list pages (GET …/pipeline_destination_configs/?limit&offset): the pages
// this request read, which configs they hold (listed-configs.ts), and which are still in flight.
// A by-id read waits for a project's lists in flight, and reads list pages itself when several
// configs of one project are wanted and pages are fewer calls than a retrieve each.
import { CURRENT_PROJECT } from '../../core/ids.ts';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeConfig } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ConfigRecord } from '../../upstream/posthog/records.ts';
import { normalizeOffsetPage, type OffsetPage } from '../../upstream/wire/pages.ts';
import type { CurrentProject } from '../current-project.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';
import type { PageKey } from '../projects.ts';
import { type ConfigKey, configKey, ListedConfigs } from './listed.ts';

/** Below this many configs of one project, one retrieve each beats reading list pages. */
const LIST_PREFETCH_MIN_IDS = 3;
const LIST_PAGE_SIZE = 100;

export type ConfigPageKey = PageKey & { projectId: string };

export class ConfigLists {
  /** Configs this request has seen in list answers. */
  readonly listed = new ListedConfigs();
  /** List pages in flight, per project: a by-id read waits for them before retrieving. */
  private readonly pending = new Map<string, Set<Promise<unknown>>>();
  private pageLoader?: PerKeyLoader<ConfigPageKey, OffsetPage<ConfigRecord>, string>;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly currentProject: CurrentProject,
  ) {}

  /** A page of a project's configs; registered as in flight until it settles. */
  page(key: ConfigPageKey): Promise<OffsetPage<ConfigRecord>> {
    this.pageLoader ??= perKeyLoader((k: ConfigPageKey) => this.read(k), jsonKey);
    const promise = this.pageLoader.load(key);
    const pending = this.pending.get(key.projectId) ?? new Set();
    this.pending.set(key.projectId, pending.add(promise));
    const settle = () => {
      pending.delete(promise);
      if (pending.size === 0 && this.pending.get(key.projectId) === pending)
        this.pending.delete(key.projectId);
    };
    promise.then(settle, settle);
    return promise;
  }

  /** Settles when no list page of these projects is in flight. */
  async settled(projectIds: Iterable<string>): Promise<void> {
    await Promise.allSettled([...projectIds].flatMap((p) => [...(this.pending.get(p) ?? [])]));
  }

  /** Whether any list page is in flight. */
  get inFlight(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Many configs of one project cost fewer calls as list pages (100 a page) than as one retrieve
   * each. Read the first page; read the rest only when fewer pages remain than ids still missing.
   * What the pages do not hold (PostHog lists no soft-deleted config) is then retrieved alone.
   */
  async readFor(projectId: string, ids: number[]): Promise<void> {
    // Lists this request already holds or is reading count first.
    await this.settled([projectId]);
    const unknown = ids.filter((id) => !this.listed.has(configKey({ projectId, id })));
    if (unknown.length < LIST_PREFETCH_MIN_IDS) return;
    const first = await this.page({ projectId, limit: LIST_PAGE_SIZE, offset: 0 });
    const missing = unknown.filter((id) => !this.listed.has(configKey({ projectId, id })));
    const pagesLeft = Math.max(0, Math.ceil((first.count - LIST_PAGE_SIZE) / LIST_PAGE_SIZE));
    if (missing.length === 0 || pagesLeft >= missing.length) return;
    await Promise.all(
      Array.from({ length: pagesLeft }, (_, i) =>
        this.page({ projectId, limit: LIST_PAGE_SIZE, offset: (i + 1) * LIST_PAGE_SIZE }),
      ),
    );
  }

  /** The listed config, parsed now; undefined when no list carried it whole (listed-configs.ts). */
  get(key: ConfigKey): ConfigRecord | undefined {
    return this.listed.get(configKey(key));
  }

  private async read({ projectId, limit, offset }: ConfigPageKey): Promise<OffsetPage<ConfigRecord>> {
    const answer = await this.upstream.request({
      method: 'GET',
      path: PATHS.configs(projectId),
      query: { limit, offset },
      parseAnswer: false,
    });
    const page = normalizeOffsetPage(
      answer,
      (raw) => this.currentProject.learnFrom(normalizeConfig(raw, projectId, 'list')),
      offset,
      PATHS.configs(projectId),
    );
    this.listed.add(projectId, page);
    if (projectId === CURRENT_PROJECT) this.currentProject.learnFromPage(page);
    return page;
  }
}
