// The newest entries of several items at once: a page of destinations (or configs, or hog
// functions) each showing its `activity(first: n)` does not make one activity_log read per item.
// - Where the request reads the first page of the project's log anyway (the combined view), an
//   item's newest entries are that page's entries of the item, when the page holds them: PostHog
//   filters `scope` and `item_id` on the very queryset it lists, in the same order
//   (posthog/api/activity_log.py at 00f399d, get_queryset; advanced_activity_logs/viewset.py at
//   1b10cf8, safely_get_queryset), so the item's own list starts with them.
// - Otherwise the items are read together from PostHog's advanced_activity_logs (`scopes` and
//   `item_ids` lists, newest first, up to 1,000 a page).
// An item whose newest entries neither page may hold (a page full of other items' entries) is
// read on its own, as is every item when the upstream has no advanced_activity_logs (PostHog
// before it) and the log page does not hold it.
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeEntry } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import type { CursorPage } from '../../upstream/wire/pages.ts';
import type { UpstreamFeatures } from '../upstream-features.ts';
import type { Activity } from './activity.ts';

export interface ItemHeadKey {
  projectId: string;
  scope: string;
  itemId: string;
  first: number;
}

/** An item's newest `first` entries, and whether it has more; null: read it on its own. */
export type ItemHead = { entries: ActivityEntryRecord[]; more: boolean } | null;

const MAX_PAGE_SIZE = 1_000;
const keyOf = (k: ItemHeadKey) => `${k.projectId}\n${k.scope}\n${k.itemId}\n${k.first}`;

export class ActivityHeads {
  private loader?: DataLoader<ItemHeadKey, ItemHead, string>;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly features: UpstreamFeatures,
    private readonly activity: Activity,
  ) {}

  load(key: ItemHeadKey): Promise<ItemHead> {
    // PostHog ignores an empty filter: such an item's own list is not its entries of the page.
    const logPage =
      key.scope && key.itemId ? this.activity.firstPageRead(key.projectId, key.scope) : undefined;
    if (!logPage) return this.readTogether(key);
    // A log page that failed, or holds an entry it cannot read, serves no item: they are read
    // as if the page had not been. An item the page cannot serve is read once the page is in
    // (it was asked for in the same round as the items' list, so it is in about as soon).
    return logPage.then(
      (page) => {
        try {
          return headOnPage(page, key) ?? this.readTogether(key);
        } catch {
          return this.readTogether(key);
        }
      },
      () => this.readTogether(key),
    );
  }

  private readTogether(key: ItemHeadKey): Promise<ItemHead> {
    if (this.features.advancedActivityLogs === false) return Promise.resolve(null);
    this.loader ??= new DataLoader((keys) => this.readAll(keys), { cacheKeyFn: keyOf });
    return this.loader.load(key);
  }

  private async readAll(keys: readonly ItemHeadKey[]): Promise<(ItemHead | Error)[]> {
    const byProject = new Map<string, ItemHeadKey[]>();
    for (const k of keys) byProject.set(k.projectId, [...(byProject.get(k.projectId) ?? []), k]);
    const heads = new Map<ItemHeadKey, ItemHead | Error>();
    await Promise.all(
      [...byProject].map(async ([projectId, group]) => {
        for (const [k, head] of await this.readProject(projectId, group)) heads.set(k, head);
      }),
    );
    return keys.map((k) => heads.get(k) ?? null);
  }

  private async readProject(
    projectId: string,
    keys: ItemHeadKey[],
  ): Promise<Map<ItemHeadKey, ItemHead | Error>> {
    const wanted = keys.reduce((sum, k) => sum + k.first + 1, 0);
    let body: { results?: unknown; next?: unknown };
    try {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.advancedActivityLogs(projectId),
        query: {
          // Repeated parameters, as PostHog reads its lists (a comma list is one value).
          scopes: [...new Set(keys.map((k) => k.scope))],
          item_ids: [...new Set(keys.map((k) => k.itemId))],
          page_size: Math.min(MAX_PAGE_SIZE, wanted),
        },
      });
      this.features.advancedActivityLogs = true;
      body = (answer.body ?? {}) as typeof body;
    } catch (error) {
      if (error instanceof GraphQLError && error.extensions.code === 'UPSTREAM_UNSUPPORTED') {
        this.features.advancedActivityLogs = false;
        return new Map(keys.map((k) => [k, null]));
      }
      return new Map(keys.map((k) => [k, error as Error]));
    }
    const results = Array.isArray(body.results) ? body.results : [];
    const pageIsWhole = body.next === null || body.next === undefined;
    const byItem = new Map<string, ActivityEntryRecord[]>();
    for (const raw of results) {
      const entry = normalizeEntry(raw, projectId);
      const item = `${entry.scope}\n${entry.itemId}`;
      byItem.set(item, [...(byItem.get(item) ?? []), entry]);
    }
    const heads = new Map<ItemHeadKey, ItemHead | Error>();
    for (const k of keys) {
      const entries = byItem.get(`${k.scope}\n${k.itemId}`) ?? [];
      // Fewer than asked: all there are, when the page held every matching entry.
      if (entries.length > k.first) heads.set(k, { entries: entries.slice(0, k.first), more: true });
      else heads.set(k, pageIsWhole ? { entries, more: false } : null);
    }
    return heads;
  }
}

/**
 * The item's newest `key.first` entries as a newest-first page of its log (the whole log, or its
 * scope's) has them, and whether it has more; null when the page may not hold them (fewer there,
 * and pages after it).
 */
export function headOnPage(page: CursorPage<ActivityEntryRecord>, key: ItemHeadKey): ItemHead {
  if (page.nextCursor !== null && mentions(page, key.itemId) <= key.first) return null;
  const item = `${key.scope}\n${key.itemId}`;
  const items = itemsOf(page);
  const entries: ActivityEntryRecord[] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i] !== item) continue;
    if (entries.length === key.first) return { entries, more: true };
    const entry = page.at(i);
    // Its members read where JSON.parse keeps another (a name written twice): the page is not used.
    if (entry.scope !== key.scope || entry.itemId !== key.itemId) throw new Error('entry read two ways');
    entries.push(entry);
  }
  return page.nextCursor === null ? { entries, more: false } : null;
}

/** How often each item id is written in a page, counted once a page for all its lookups. */
const mentionsByPage = new WeakMap<CursorPage<ActivityEntryRecord>, Map<string, number>>();

/**
 * How many of a page's entries may be the item's, at most, found without a walk of the entries:
 * PostHog writes each entry's item as `"item_id":"<id>"` (a CharField, DRF's compact JSON), and
 * a page of entries is searched once natively for them all (far less than one more upstream
 * call costs). Written otherwise (spaces, escapes, a number), the item's entries are not seen
 * here, and it is read on its own. Infinity once the page's bytes are let go: then its entries
 * are walked.
 */
function mentions(page: CursorPage<ActivityEntryRecord>, itemId: string): number {
  let counts = mentionsByPage.get(page);
  if (!counts) {
    const written = page.stringMembers('item_id');
    if (written === null) return Number.POSITIVE_INFINITY;
    counts = new Map();
    for (const id of written) counts.set(id, (counts.get(id) ?? 0) + 1);
    mentionsByPage.set(page, counts);
  }
  return counts.get(itemId) ?? 0;
}

/**
 * Each entry's item (`scope\nitem_id`; null for an entry of no item, which no item's list holds),
 * found once a page for all the items looked up there.
 */
const itemsByPage = new WeakMap<CursorPage<ActivityEntryRecord>, (string | null)[]>();

/**
 * A page's entries' items, read from their `scope` and `item_id` members without parsing the
 * entries (the page's other items' entries are most of it); an entry whose members are not plain
 * JSON strings and numbers there is parsed, and read as the item's own list would read it.
 */
function itemsOf(page: CursorPage<ActivityEntryRecord>): (string | null)[] {
  let items = itemsByPage.get(page);
  if (items) return items;
  items = [];
  for (let i = 0; page.has(i); i++) {
    const scope = page.isRead(i) ? undefined : page.member(i, 'scope');
    const itemId = scope === undefined ? undefined : page.member(i, 'item_id');
    if (typeof scope === 'string' && (typeof itemId === 'string' || typeof itemId === 'number'))
      items.push(`${scope}\n${itemId}`);
    else {
      const entry = page.at(i);
      items.push(entry.itemId === null ? null : `${entry.scope}\n${entry.itemId}`);
    }
  }
  itemsByPage.set(page, items);
  return items;
}
