// The newest entries of several items at once: a page of destinations (or configs, or hog
// functions) each showing its `activity(first: n)` asks for one read of PostHog's
// advanced_activity_logs (posthog/api/advanced_activity_logs/viewset.py: `scopes` and `item_ids`
// lists, newest first, up to 1,000 a page) instead of one activity_log read per item. An item
// whose newest entries the page may not hold (a page full of other items' entries) is read on its
// own, as is every item when the upstream has no advanced_activity_logs (PostHog before it).
import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { CallerUpstream } from '../upstream/call.ts';
import { normalizeEntry } from '../upstream/normalize.ts';
import { PATHS } from '../upstream/paths.ts';
import type { ActivityEntryRecord } from '../upstream/records.ts';
import type { UpstreamFeatures } from './upstream-features.ts';

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
  ) {}

  load(key: ItemHeadKey): Promise<ItemHead> {
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
          scopes: [...new Set(keys.map((k) => k.scope))].join(','),
          item_ids: [...new Set(keys.map((k) => k.itemId))].join(','),
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
