// The log's entries a process did not hear in the messages of a shared poller
// (poll-sharing.ts), read again: from the position before them, as a process taking the lease
// reads on from the kept one, up to the position after the message heard next.
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { ActivityNews, MAX_CATCH_UP_PAGES, type NewsPosition, type ReadPage } from './news.ts';

/**
 * The entries after `from` that the position after the later message (`seen`, the newest ids it
 * had seen) covers, oldest first, less `then` (that message's own). Read past it, the newer
 * entries are left to the messages after.
 */
export async function readMissed(
  from: NewsPosition,
  seen: string[],
  then: ActivityEntryRecord[],
  read: ReadPage,
): Promise<ActivityEntryRecord[]> {
  const news = new ActivityNews();
  news.resume(from);
  const found: ActivityEntryRecord[] = [];
  for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages++) {
    const { fresh, more } = await news.read(read);
    found.push(...fresh);
    if (!more) break;
  }
  // In the log's order: every entry up to the last one that position had seen, it had seen too.
  const covered = new Set(seen);
  let end = found.length;
  while (end > 0 && !covered.has(found[end - 1]!.id)) end--;
  const theirs = new Set(then.map((entry) => entry.id));
  return found.slice(0, end).filter((entry) => !theirs.has(entry.id));
}
