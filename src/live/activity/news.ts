// What of a project's activity log is news to a poller's subscribers: the entries it has seen,
// when its first subscriber came, and how the upstream is read — followed oldest first after a kept
// cursor where the upstream can (activity-follow.ts), else newest first back to the last entry seen.
import { FOLLOW_PAGE_SIZE } from '../../loaders/activity/activity.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import type { CursorPage } from '../../upstream/wire/pages.ts';
import { answersFollow, entriesOf } from './follow.ts';

/**
 * How far back one poll follows the log (100 entries a page): past it, the older news is left
 * out and the subscribers are told so, once, before the entries that are delivered.
 */
export const MAX_CATCH_UP_PAGES = 10;
/** How far the first poll of a followed log reads from its start before it follows newest first. */
const MAX_FOLLOW_BASELINE_PAGES = 10;
/** More than one poll's catch-up, so that the entry a poll stops at is still known. */
const SEEN_MAX = 2_000;

type Page = CursorPage<ActivityEntryRecord>;
export type ReadPage = (cursor: string | null, follow: boolean) => Promise<Page>;
/** The newest ids a position keeps: more than a page, which is all a newest-first poll compares. */
const POSITION_SEEN = 200;

/**
 * Where a poller stands, as processes sharing one poller pass it on (shared-state/
 * shared-polling.ts): enough to go on reading without a new baseline and without repeating an
 * entry. JSON.
 */
export interface NewsPosition {
  seen: string[];
  baseline: number | null;
  baselined: boolean;
  mode: 'unknown' | 'follow' | 'newest-first';
  followCursor: string | null;
}

/** What one poll found: the news, oldest first, and whether older news was left out. */
export interface News {
  fresh: ActivityEntryRecord[];
  leftOut: boolean;
  /** Following, a full page was read: more is there, read once these are taken. */
  more?: boolean;
}

export class ActivityNews {
  private readonly seen = new Set<string>();
  /** When the first subscriber came, less a second (logs may keep whole seconds). */
  private baseline: number | null = null;
  private baselined = false;
  /** How the upstream is read: learnt from its answer to the first poll. */
  private mode: 'unknown' | 'follow' | 'newest-first' = 'unknown';
  /** Following: the upstream's cursor after the last entry read. */
  private followCursor: string | null = null;

  /** The first subscriber came: entries made from now on are news even in the first poll. */
  start(): void {
    this.baseline = Date.now() - 1_000;
  }

  /** Where this stands now. */
  position(): NewsPosition {
    const seen = [...this.seen];
    return {
      seen: seen.slice(Math.max(0, seen.length - POSITION_SEEN)),
      baseline: this.baseline,
      baselined: this.baselined,
      mode: this.mode,
      followCursor: this.followCursor,
    };
  }

  /** Goes on from `position` (another process's, or this one's before a read that was not delivered). */
  resume(position: NewsPosition): void {
    this.seen.clear();
    for (const id of position.seen) this.seen.add(id);
    this.baseline = position.baseline ?? Date.now() - 1_000;
    this.baselined = position.baselined;
    this.mode = position.mode;
    this.followCursor = position.followCursor;
  }

  /**
   * The entries that are news, in the upstream's order (oldest first), and whether older news was
   * left out: followed oldest first where the upstream can (activity-follow.ts), else newest first
   * back to the last entry seen. The first poll is the baseline (news only if made after the
   * first subscriber came).
   */
  /** One poll's news, read by `read`. */
  async read(read: ReadPage): Promise<News> {
    if (this.mode === 'follow') return this.readFollowing(read, null);
    if (this.mode === 'newest-first') return this.readNewestFirst(read, null);
    // The first poll asks to follow; an upstream without it answers its newest page, the baseline.
    const page = await read(null, true);
    if (answersFollow(page)) {
      this.mode = 'follow';
      return this.readFollowing(read, page);
    }
    this.mode = 'newest-first';
    return this.readNewestFirst(read, page);
  }

  /**
   * Newest first, page after page, back to the first entry already seen: up to
   * MAX_CATCH_UP_PAGES pages. The first poll reads one page: what it holds is the baseline.
   */
  private async readNewestFirst(read: ReadPage, firstPage: Page | null): Promise<News> {
    const first = !this.baselined;
    const newestFirst: ActivityEntryRecord[] = [];
    let cursor: string | null = null;
    let page = firstPage ?? (await read(null, false));
    for (let pages = 1; ; pages++) {
      let reachedSeen = false;
      for (let i = 0; page.has(i); i++) {
        const entry = page.at(i);
        if (this.seen.has(entry.id)) {
          reachedSeen = true;
          break;
        }
        newestFirst.push(entry);
      }
      const next = page.nextCursor;
      if (first || reachedSeen || !next || next === cursor) break;
      if (pages >= MAX_CATCH_UP_PAGES) return this.delivered(newestFirst, first, true);
      cursor = next;
      page = await read(cursor, false);
    }
    return this.delivered(newestFirst, first, false);
  }

  /**
   * Oldest first from the kept cursor to the tail: nothing is skipped however many arrived. The
   * first poll reads the log from its start to find the tail (at most MAX_FOLLOW_BASELINE_PAGES;
   * a longer log is followed newest first instead, as an upstream without `follow` is).
   */
  private async readFollowing(read: ReadPage, firstPage: Page | null): Promise<News> {
    const first = !this.baselined;
    const oldestFirst: ActivityEntryRecord[] = [];
    let page = firstPage ?? (await read(this.followCursor, true));
    for (let pages = 1; ; pages++) {
      oldestFirst.push(...entriesOf(page).filter((e) => !this.seen.has(e.id)));
      if (page.nextCursor !== null) this.followCursor = page.nextCursor;
      const full = page.nextCursor !== null && page.has(FOLLOW_PAGE_SIZE - 1);
      // After the baseline, a page a poll: the next is read once its entries are taken.
      if (!first) return { ...this.delivered(oldestFirst.reverse(), false, false), more: full };
      if (!full) break;
      if (pages >= MAX_FOLLOW_BASELINE_PAGES) {
        this.mode = 'newest-first';
        return this.readNewestFirst(read, null);
      }
      page = await read(this.followCursor, true);
    }
    return this.delivered(oldestFirst.reverse(), first, false);
  }

  /** Marks `newestFirst` seen and returns what of it is news, oldest first. */
  private delivered(newestFirst: ActivityEntryRecord[], first: boolean, leftOut: boolean) {
    this.baselined = true;
    const fresh: ActivityEntryRecord[] = [];
    for (let i = newestFirst.length - 1; i >= 0; i--) {
      const entry = newestFirst[i]!;
      this.seen.add(entry.id);
      if (!first || Date.parse(entry.createdAt) >= this.baseline!) fresh.push(entry);
    }
    if (this.seen.size > SEEN_MAX) {
      for (const id of [...this.seen].slice(0, this.seen.size - SEEN_MAX)) this.seen.delete(id);
    }
    return { fresh, leftOut };
  }
}
