// Following the activity log oldest first (PostHog 2026: `ordering=created_at&follow=true`): a
// poll asks for what comes after the kept cursor, so however many entries arrive between two
// polls none is skipped, 1,000 a page. Whether the upstream follows is learnt from its answer,
// never configured: asked so, an upstream without it answers newest first, 100 a page, as before.

import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import type { CursorPage } from '../../upstream/wire/pages.ts';
import { instant } from './instant.ts';

/**
 * Whether a page asked for with `follow` was answered that way: oldest first (with two entries or
 * more to tell), or, with fewer, a `next` cursor kept at the tail (an upstream that ignored the
 * request has no next page when it holds one entry or none).
 */
export function answersFollow(page: CursorPage<ActivityEntryRecord>): boolean {
  if (!page.has(1)) return page.nextCursor !== null;
  let last = 0;
  while (page.has(last + 1)) last++;
  // Compared as instants, not text (activity-instant.ts); a page of one instant tells nothing: not followed.
  return instant(page.at(0).createdAt) < instant(page.at(last).createdAt);
}

/** A followed page's entries, oldest first. */
export function entriesOf(page: CursorPage<ActivityEntryRecord>): ActivityEntryRecord[] {
  const entries: ActivityEntryRecord[] = [];
  for (let i = 0; page.has(i); i++) entries.push(page.at(i));
  return entries;
}
