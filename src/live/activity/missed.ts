// The log's entries a process did not hear in the messages of a shared poller
// (poll-sharing.ts), read again: from the position before them, as a process taking the lease
// reads on from the kept one, up to the position after the message heard next.
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { ActivityNews, MAX_CATCH_UP_PAGES, type NewsPosition, type ReadPage } from './news.ts';
import { catchUpExceeded } from './poll-failures.ts';
import type { PollerEvent } from './poller.ts';

/** Where the entries left out came, as the error says. */
const WHEN = 'in the messages this process did not hear';

/**
 * The entries after `from` that the position after the later message (`seen`, the newest ids it
 * had seen) covers, oldest first, less `then` (that message's own); more than the catch-up bound,
 * the subscribers are told first that older ones were left out. Read past that position, the
 * newer entries are left to the messages after it.
 */
export async function readMissed(
  from: NewsPosition,
  seen: string[],
  then: ActivityEntryRecord[],
  read: ReadPage,
): Promise<PollerEvent[]> {
  const news = new ActivityNews();
  news.resume(from);
  const covered = new Set(seen);
  const found: ActivityEntryRecord[] = [];
  let leftOut = false;
  for (let pages = 1; ; pages++) {
    const page = await news.read(read);
    found.push(...page.fresh);
    leftOut ||= page.leftOut;
    const last = found.at(-1);
    // Read past that position (followed, page by page): the rest is the later messages'.
    if (!page.more || (last && !covered.has(last.id))) break;
    if (pages >= MAX_CATCH_UP_PAGES) {
      leftOut = true;
      break;
    }
  }
  // In the log's order: every entry up to the last one that position had seen, it had seen too.
  let end = found.length;
  while (end > 0 && !covered.has(found[end - 1]!.id)) end--;
  const theirs = new Set(then.map((entry) => entry.id));
  const events: PollerEvent[] = leftOut ? [{ kind: 'error', error: catchUpExceeded(WHEN) }] : [];
  for (const entry of found.slice(0, end)) if (!theirs.has(entry.id)) events.push({ kind: 'entry', entry });
  return events;
}
