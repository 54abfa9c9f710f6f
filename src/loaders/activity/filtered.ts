// The activity log under a `filter` (ActivityLogFilter), as this request reads it: from PostHog's
// advanced_activity_logs, which filters it, where the upstream routes it; else (PostHog before
// it, the interface document) from the plain activity_log, the gateway keeping the entries that
// match. Which route a filter takes, and what the gateway checks itself: activity-filter.ts.
import { GraphQLError } from 'graphql';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeEntry } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ActivityEntryRecord } from '../../upstream/posthog/records.ts';
import { FilteredPage, type ListPage } from '../../upstream/wire/filtered-page.ts';
import { normalizeCursorPage } from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';
import type { UpstreamFeatures } from '../upstream-features.ts';
import { type ActivityRoute, advancedQuery, gatewayCheck, type ListFilters, plainQuery } from './filter.ts';

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
