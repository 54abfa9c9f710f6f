// One poller of a project's activity log, for every subscriber of one key with the same
// arguments. It polls with that key every ACTIVITY_POLL_MS (or at once when a write of that key
// to the project wakes it) and hands each subscriber every entry newer than what it has seen, in
// the upstream's order reversed (oldest first: never re-sorted by a millisecond date, which put
// entries of one millisecond newest first), each once, following the log's pages back to the
// last entry seen, or oldest first after a kept cursor where the upstream follows (readNews).
// - The first poll is the baseline: entries already in the log are not news, except those made
//   after the first subscriber came (a write racing the subscription is still delivered).
// - 429: the client waits out a Retry-After that fits its deadline; a longer one is waited here.
// - 401/403: every subscriber's stream ends with the coded error.
// - Any other failure is reported to the subscribers as an event with that error (the stream
//   goes on), and polling backs off exponentially up to MAX_BACKOFF_MS.
import type { GraphQLError } from 'graphql';
import { codedError } from '../errors/codes.ts';
import { FOLLOW_PAGE_SIZE } from '../loaders/activity.ts';
import { createLoaders } from '../loaders/index.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { CursorPage } from '../upstream/pages.ts';
import type { ActivityEntryRecord } from '../upstream/records.ts';
import { RequestSignal } from '../upstream/request-signal.ts';
import { answersFollow, entriesOf } from './activity-follow.ts';

export interface ActivityArgs {
  projectId: string;
  scope: string | null;
  itemId: string | null;
  userId: number | null;
}

/** What a subscriber is handed: an entry, an error to report, or the error that ends it. */
export type PollerEvent =
  | { kind: 'entry'; entry: ActivityEntryRecord }
  | { kind: 'error'; error: GraphQLError }
  | { kind: 'end'; error: GraphQLError };

export interface PollerOptions {
  client: UpstreamClient;
  authorization: string;
  args: ActivityArgs;
  pollMs: number;
  /** The deadline of one poll, retries and a fitting Retry-After included. */
  pollDeadlineMs: number;
}

const MAX_BACKOFF_MS = 60_000;
/**
 * How far back one poll follows the log (100 entries a page): past it, the older news is left
 * out and the subscribers are told so, once, before the entries that are delivered.
 */
const MAX_CATCH_UP_PAGES = 10;
/** How far the first poll of a followed log reads from its start before it follows newest first. */
const MAX_FOLLOW_BASELINE_PAGES = 10;
/** More than one poll's catch-up, so that the entry a poll stops at is still known. */
const SEEN_MAX = 2_000;

const catchUpExceeded = () =>
  codedError(
    'QUERY_TOO_COMPLEX',
    `More than ${MAX_CATCH_UP_PAGES} pages of activity arrived between two polls: the older entries were left out (read them with Project.activityLog).`,
    { measure: 'activityCatchUpPages', limit: MAX_CATCH_UP_PAGES },
  );
const ENDING_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN']);

type Page = CursorPage<ActivityEntryRecord>;
type ReadPage = (cursor: string | null, follow: boolean) => Promise<Page>;
/** What one poll found: the news, oldest first, and whether older news was left out. */
interface News {
  fresh: ActivityEntryRecord[];
  leftOut: boolean;
  /** Following, a full page was read: more is there, read once these are taken. */
  more?: boolean;
}

/** A subscriber: told of each event; what it returns settles when the event has been taken. */
export type Subscriber = (event: PollerEvent) => Promise<unknown> | void;

export class ActivityPoller {
  private readonly subscribers = new Set<Subscriber>();
  private readonly seen = new Set<string>();
  /** When the first subscriber came, less a second (logs may keep whole seconds). */
  private baseline: number | null = null;
  private baselined = false;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private wakeRequested = false;
  private stopped = false;
  private failures = 0;
  private readonly signal = new RequestSignal();
  /** How the upstream is read: learnt from its answer to the first poll. */
  private mode: 'unknown' | 'follow' | 'newest-first' = 'unknown';
  /** Following: the upstream's cursor after the last entry read. */
  private followCursor: string | null = null;

  constructor(private readonly options: PollerOptions) {}

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    if (this.baseline === null) {
      this.baseline = Date.now() - 1_000;
      this.schedule(0);
    }
  }

  /** Returns whether the poller is now unused (and stopped). */
  remove(subscriber: Subscriber): boolean {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size > 0) return false;
    this.stop();
    return true;
  }

  /** A write of this key to the project: poll now (after the poll in flight, if any). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.signal.abort(new Error('poller stopped'));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  /** Tells every subscriber; settles when each has taken the event. */
  private emit(event: PollerEvent): Promise<unknown> {
    return Promise.all([...this.subscribers].map((subscriber) => subscriber(event)));
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.running = true;
    let nextMs = this.options.pollMs;
    try {
      const { fresh, leftOut, more } = await this.readNews();
      this.failures = 0;
      if (leftOut) void this.emit({ kind: 'error', error: catchUpExceeded() });
      let taken: Promise<unknown> = Promise.resolve();
      for (const entry of fresh) taken = this.emit({ kind: 'entry', entry });
      if (more) {
        // The rest of a burst is read once this page is taken (or the poll's deadline passes), so
        // a subscriber's backlog stays within a page whatever the burst.
        await Promise.race([
          taken,
          new Promise((resolve) => setTimeout(resolve, this.options.pollDeadlineMs)),
        ]);
        nextMs = 0;
      }
    } catch (error) {
      if (this.stopped) return;
      const coded = error as GraphQLError;
      const code = String(coded.extensions?.code ?? '');
      if (ENDING_CODES.has(code)) {
        void this.emit({ kind: 'end', error: coded });
        this.stop();
        return;
      }
      void this.emit({ kind: 'error', error: coded });
      this.failures++;
      const retryAfter = Number(coded.extensions?.retryAfter);
      nextMs =
        code === 'RATE_LIMITED' && retryAfter > 0
          ? retryAfter * 1000
          : Math.min(MAX_BACKOFF_MS, this.options.pollMs * 2 ** this.failures);
    } finally {
      this.running = false;
    }
    if (this.wakeRequested) {
      this.wakeRequested = false;
      nextMs = Math.min(nextMs, 0);
    }
    this.schedule(nextMs);
  }

  /**
   * The entries that are news, in the upstream's order (oldest first), and whether older news was
   * left out: followed oldest first where the upstream can (activity-follow.ts), else newest first
   * back to the last entry seen. The first poll is the baseline (news only if made after the
   * first subscriber came).
   */
  private async readNews(): Promise<News> {
    const { client, authorization, args, pollDeadlineMs } = this.options;
    const upstream = client.forCaller({
      authorization,
      signal: this.signal,
      deadline: Date.now() + pollDeadlineMs,
    });
    const loaders = createLoaders(upstream);
    const filters = { scope: args.scope, itemId: args.itemId, userId: args.userId };
    const read = (cursor: string | null, follow: boolean) =>
      loaders.activity.page({ projectId: args.projectId, cursor, filters, follow });
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
