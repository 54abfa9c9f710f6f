// The activity log under a `filter` (ActivityLogFilter), as this request reads it: from PostHog's
// advanced_activity_logs, which filters it, where the upstream routes it; else (PostHog before
// it, the interface document) from the plain activity_log, the gateway keeping the entries that
// match. Which route a filter takes, and what the gateway checks itself: activity-filter.ts.
import { GraphQLError } from 'graphql';
import type { CallerUpstream } from '../upstream/call.ts';
import { FilteredPage, type ListPage } from '../upstream/filtered-page.ts';
import { normalizeEntry } from '../upstream/normalize.ts';
import { normalizeCursorPage } from '../upstream/pages.ts';
import { PATHS } from '../upstream/paths.ts';
import type { ActivityEntryRecord } from '../upstream/records.ts';
import {
  type ActivityRoute,
  advancedQuery,
  gatewayCheck,
  type ListFilters,
  plainQuery,
} from './activity-filter.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from './one-at-a-time.ts';
import type { UpstreamFeatures } from './upstream-features.ts';

export interface FilteredPageKey {
  projectId: string;
  cursor: string | null;
  filters: ListFilters;
}

type Page = ListPage<ActivityEntryRecord>;

export class FilteredActivity {
  private pages?: PerKeyLoader<FilteredPageKey, Page, string>;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly features: UpstreamFeatures,
  ) {}

  /** A page of the filtered log, newest first: from the top (cursor null) or where a cursor points. */
  page(key: FilteredPageKey): Promise<Page> {
    this.pages ??= perKeyLoader((k: FilteredPageKey) => this.read(k), jsonKey);
    return this.pages.load(key);
  }

  private async read(key: FilteredPageKey): Promise<Page> {
    // A cursor names the route that wrote it: an advanced route's cursor goes back to it.
    if (this.features.advancedActivityLogs !== false) {
      try {
        const page = await this.readRoute('advanced', key);
        this.features.advancedActivityLogs = true;
        return page;
      } catch (error) {
        const unsupported = error instanceof GraphQLError && error.extensions.code === 'UPSTREAM_UNSUPPORTED';
        if (!unsupported || this.features.advancedActivityLogs === true) throw error;
        this.features.advancedActivityLogs = false;
      }
    }
    return this.readRoute('plain', key);
  }

  private async readRoute(route: ActivityRoute, { projectId, cursor, filters }: FilteredPageKey) {
    const path = route === 'advanced' ? PATHS.advancedActivityLogs(projectId) : PATHS.activityLog(projectId);
    const answer = await this.upstream.request({
      method: 'GET',
      path,
      query: {
        cursor: cursor ?? undefined,
        ...(route === 'advanced' ? advancedQuery(filters) : plainQuery(filters)),
      },
      parseAnswer: false,
    });
    const page = normalizeCursorPage(answer, (raw) => normalizeEntry(raw, projectId), path);
    const check = gatewayCheck(filters, route);
    return check ? new FilteredPage(page, check) : page;
  }
}
