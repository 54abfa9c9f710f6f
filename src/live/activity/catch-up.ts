// What a resumed activityAdded owes its client before it goes live: every entry after the one the
// client has, oldest first, read newest first from the top of the log back to it (as a poll
// reads back to the last entry seen: activity-news.ts), at most MAX_CATCH_UP_PAGES pages.
// - The first pass checks `after`: a log that ends before it does not hold it (too old, another
//   project, other filters): BAD_USER_INPUT. Past the bound, the same QUERY_TOO_COMPLEX event as a
//   poll's comes first, then the newest entries read. (An activityLog cursor of a later page
//   names the page that held its entry, so past the bound that page is read to tell "older" from
//   "not there"; a bare id, or a first page's cursor, past the bound is older than the bound, or
//   not of this log: which, only reading the whole log could tell.)
// - Each later pass reads back to the newest entry delivered, so the seam with the poller
//   (resumed-stream.ts) loses nothing; the ids delivered are kept to drop the poller's repeats.
import type { GraphQLError } from 'graphql';
import { badUserInput } from '../../errors/codes.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import type { CursorPage } from '../../upstream/wire/pages.ts';
import { instant } from './instant.ts';
import { MAX_CATCH_UP_PAGES } from './news.ts';
import type { PollerEvent } from './poller.ts';

/** Where a resumed subscription goes on from: after this entry. */
export interface ResumePoint {
  entryId: string;
  /**
   * Given as an activityLog cursor: the upstream cursor of the page that held the entry (null:
   * the first page, which moves as entries come). Undefined for a bare id.
   */
  upstreamCursor?: string | null;
}

/** Reads one page of the log, newest first (null: the top); each pass gets a fresh reader. */
export type ReadNewestFirst = (cursor: string | null) => Promise<CursorPage<ActivityEntryRecord>>;

interface ReadBack {
  /** The entries newer than the anchor, oldest first. */
  entries: ActivityEntryRecord[];
  /** found: the anchor (or an older entry) was reached; end: the log ended first; bound: the bound did. */
  outcome: 'found' | 'end' | 'bound';
  /** The anchor as found (its date bounds the next pass, should it be deleted meanwhile). */
  anchor?: ActivityEntryRecord;
}

/**
 * Newest first from the top back to `anchorId` (or to the first entry older than `notBefore`,
 * should the anchor itself be gone), at most MAX_CATCH_UP_PAGES pages.
 */
async function readBackTo(
  read: ReadNewestFirst,
  anchorId: string,
  notBefore: number | null,
): Promise<ReadBack> {
  const newestFirst: ActivityEntryRecord[] = [];
  let cursor: string | null = null;
  for (let pages = 1; ; pages++) {
    const page = await read(cursor);
    for (let i = 0; page.has(i); i++) {
      const entry = page.at(i);
      if (entry.id === anchorId) return { entries: newestFirst.reverse(), outcome: 'found', anchor: entry };
      if (notBefore !== null && instant(entry.createdAt) < notBefore)
        return { entries: newestFirst.reverse(), outcome: 'found' };
      newestFirst.push(entry);
    }
    const next = page.nextCursor;
    if (!next || next === cursor) return { entries: newestFirst.reverse(), outcome: 'end' };
    if (pages >= MAX_CATCH_UP_PAGES) return { entries: newestFirst.reverse(), outcome: 'bound' };
    cursor = next;
  }
}

export class ActivityCatchUp {
  /** Every id the catch-up delivered: the poller may find them again. */
  private readonly delivered = new Set<string>();
  /** The newest entry delivered (or `after` itself): where the next pass reads back to. */
  private anchorId: string;
  private anchorCreatedAt: number | null = null;
  /** The date of `after` (or, past the bound, of the oldest entry delivered): nothing older is news. */
  private floor: number | null = null;

  constructor(
    private readonly point: ResumePoint,
    /** What names the log in an error: `project 1` and its filters. */
    private readonly logName: string,
    private readonly leftOut: () => GraphQLError,
  ) {
    this.anchorId = point.entryId;
  }

  /**
   * Whether the client has this entry already: the catch-up delivered it, or it is `after` or
   * older (a new poller's first poll delivers what was made in the second before it began).
   */
  covers(entry: ActivityEntryRecord): boolean {
    if (this.delivered.has(entry.id) || entry.id === this.point.entryId) return true;
    return this.floor !== null && instant(entry.createdAt) < this.floor;
  }

  /** The first pass: what came after `after`. Throws BAD_USER_INPUT when the log does not hold it. */
  async first(read: ReadNewestFirst): Promise<PollerEvent[]> {
    const { entries, outcome, anchor } = await readBackTo(read, this.point.entryId, null);
    if (outcome === 'end') throw this.notThere();
    const oldest = anchor ?? entries[0];
    if (anchor) this.anchorCreatedAt = instant(anchor.createdAt);
    this.floor = oldest ? instant(oldest.createdAt) : null;
    // The top of the log (a first page's cursor) moves as entries come: only a later page's holds.
    if (outcome === 'bound' && this.point.upstreamCursor) {
      const page = await read(this.point.upstreamCursor);
      let held = false;
      for (let i = 0; page.has(i) && !held; i++) held = page.at(i).id === this.point.entryId;
      if (!held) throw this.notThere();
    }
    return this.deliver(entries, outcome === 'bound');
  }

  /** A later pass: what came after the newest entry delivered. */
  async again(read: ReadNewestFirst): Promise<PollerEvent[]> {
    const { entries, outcome } = await readBackTo(read, this.anchorId, this.anchorCreatedAt);
    return this.deliver(
      entries.filter((entry) => !this.delivered.has(entry.id)),
      outcome === 'bound',
    );
  }

  private deliver(entries: ActivityEntryRecord[], leftOut: boolean): PollerEvent[] {
    const events: PollerEvent[] = leftOut ? [{ kind: 'error', error: this.leftOut() }] : [];
    for (const entry of entries) {
      this.delivered.add(entry.id);
      events.push({ kind: 'entry', entry });
    }
    const newest = entries.at(-1);
    if (newest) {
      this.anchorId = newest.id;
      this.anchorCreatedAt = instant(newest.createdAt);
    }
    return events;
  }

  private notThere(): GraphQLError {
    return badUserInput(
      `\`after\`: the activity log of ${this.logName} holds no entry ${JSON.stringify(this.point.entryId)} (older than the upstream keeps, of another project, or outside these filters). Subscribe without \`after\`, and read what you missed with Project.activityLog.`,
      { field: 'after' },
    );
  }
}
