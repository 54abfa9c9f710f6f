// A project's activity log as this request reads it: pages of the cursor list (filtered upstream
// by scope, item_id and user), important changes, and the bookmark write.
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeEntry, normalizeImportantChanges } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ActivityEntryRecord, ImportantChangesRecord } from '../../upstream/posthog/records.ts';
import { type CursorPage, normalizeCursorPage } from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';

/** One cache key for one upstream read, however the filters were spelt (absent, null). */
const pageCacheKey = ({ projectId, cursor, filters, follow }: ActivityPageKey) =>
  JSON.stringify([
    projectId,
    cursor,
    filters.scope ?? null,
    filters.itemId ?? null,
    filters.userId ?? null,
    !!follow,
  ]);

export interface ActivityFilters {
  scope?: string | null;
  itemId?: string | null;
  userId?: number | null;
}

export interface ActivityPageKey {
  projectId: string;
  cursor: string | null;
  filters: ActivityFilters;
  /**
   * Oldest first, FOLLOW_PAGE_SIZE a page, with a `next` cursor kept at the tail (PostHog 2026's
   * `ordering=created_at&follow=true`). An upstream without it answers newest first.
   */
  follow?: boolean;
}

/** A page of a followed log: PostHog's largest. */
export const FOLLOW_PAGE_SIZE = 1_000;

export interface ImportantChangesKey {
  projectId: string;
  unreadOnly: boolean;
}

export interface Bookmarked {
  bookmark: string;
  /** Set when the upstream answers with an entry (as the interface document says). */
  entry: ActivityEntryRecord | null;
}

export class Activity {
  private pageLoader?: PerKeyLoader<ActivityPageKey, CursorPage<ActivityEntryRecord>, string>;
  private importantLoader?: PerKeyLoader<ImportantChangesKey, ImportantChangesRecord, string>;

  /** Each first page read for items' newest entries: the writes this request had sent when it was. */
  private readonly firstPagesAt = new Map<string, number>();

  constructor(
    private readonly upstream: CallerUpstream,
    /** How many writes this request has sent (loaders/index.ts counts them). */
    private readonly writesSent: () => number,
  ) {}

  /** A page of the log, newest first: from the top (cursor null) or where a cursor points. */
  page(key: ActivityPageKey): Promise<CursorPage<ActivityEntryRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ projectId, cursor, filters, follow }: ActivityPageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.activityLog(projectId),
        query: {
          cursor: cursor ?? undefined,
          scope: filters.scope ?? undefined,
          item_id: filters.itemId ?? undefined,
          user: filters.userId ?? undefined,
          ...(follow ? { ordering: 'created_at', follow: 'true', page_size: FOLLOW_PAGE_SIZE } : {}),
        },
        parseAnswer: false,
      });
      return normalizeCursorPage(
        answer,
        (raw) => normalizeEntry(raw, projectId),
        PATHS.activityLog(projectId),
      );
    }, pageCacheKey);
    if (key.cursor === null && !this.pageLoader.peek(key))
      this.firstPagesAt.set(pageCacheKey(key), this.writesSent());
    return this.pageLoader.load(key);
  }

  /**
   * The first page of the project's log, whole or of one scope, if this request reads it already
   * (loaders/activity/heads.ts finds an item's newest entries there). Never starts a read. Not a
   * page read before a write this request sent since (a mutation's later field): the write may
   * have added entries the page lacks.
   */
  firstPageRead(projectId: string, scope: string): Promise<CursorPage<ActivityEntryRecord>> | undefined {
    const first = (filters: ActivityFilters) => {
      const key = { projectId, cursor: null, filters };
      const page = this.pageLoader?.peek(key);
      return page && this.firstPagesAt.get(pageCacheKey(key)) === this.writesSent() ? page : undefined;
    };
    return first({}) ?? first({ scope });
  }

  /** GET …/activity_log/important_changes/ (unread=true when only the unread are wanted). */
  importantChanges(key: ImportantChangesKey): Promise<ImportantChangesRecord> {
    this.importantLoader ??= perKeyLoader(async ({ projectId, unreadOnly }: ImportantChangesKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.importantChanges(projectId),
        query: { unread: unreadOnly ? 'true' : undefined },
      });
      return normalizeImportantChanges(answer.body, projectId);
    }, jsonKey);
    return this.importantLoader.load(key);
  }

  /** POST …/activity_log/bookmark_activity_notification/ with {"bookmark": date-time}. */
  async bookmark(projectId: string, bookmark: string): Promise<Bookmarked> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.bookmark(projectId),
      json: { bookmark },
    });
    const isEntry = answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body);
    return { bookmark, entry: isEntry ? normalizeEntry(answer.body, projectId) : null };
  }
}
