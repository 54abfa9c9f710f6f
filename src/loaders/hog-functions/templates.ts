// Hog function templates as this request reads them (PostHog 2026,
// /api/projects/:id/hog_function_templates/, products/cdp/backend/api/hog_function_template.py):
// list pages filtered by `types` (PostHog lists `destination` templates when none is given, and
// never lists deprecated ones), and one template by id (deprecated and hidden ones too).

import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeHogFunctionTemplate } from '../../upstream/posthog/hog-functions.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { HogFunctionTemplateRecord } from '../../upstream/posthog/records.ts';
import { normalizeOffsetPage, type OffsetPage } from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';

export interface TemplatePageKey {
  projectId: string;
  limit: number;
  offset: number;
  types: readonly string[] | null;
}

/**
 * PostHog's templates list has no search, so the gateway searches what it lists, reading at most
 * this many pages of 100 (PostHog serves a few hundred templates of all types).
 */
export const TEMPLATE_SEARCH_PAGES = 5;
const PAGE_SIZE = 100;

export class HogFunctionTemplates {
  private pageLoader?: PerKeyLoader<TemplatePageKey, OffsetPage<HogFunctionTemplateRecord>, string>;
  private retrieveLoader?: PerKeyLoader<{ projectId: string; id: string }, HogFunctionTemplateRecord, string>;

  constructor(private readonly upstream: CallerUpstream) {}

  /** A page of the templates of `types` (PostHog's default, destination, when null). */
  page(key: TemplatePageKey): Promise<OffsetPage<HogFunctionTemplateRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ projectId, limit, offset, types }: TemplatePageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctionTemplates(projectId),
        query: { limit, offset, types: types?.length ? types.join(',') : undefined },
        parseAnswer: false,
      });
      return normalizeOffsetPage(
        answer,
        normalizeHogFunctionTemplate,
        offset,
        PATHS.hogFunctionTemplates(projectId),
      );
    }, jsonKey);
    return this.pageLoader.load(key);
  }

  /**
   * The templates of `types` whose id, name or description holds `search` (any case), in the
   * upstream's order, from at most TEMPLATE_SEARCH_PAGES pages.
   */
  async search(projectId: string, types: readonly string[] | null, search: string) {
    const needle = search.toLowerCase();
    const found: HogFunctionTemplateRecord[] = [];
    for (let pageIndex = 0; pageIndex < TEMPLATE_SEARCH_PAGES; pageIndex++) {
      const offset = pageIndex * PAGE_SIZE;
      const page = await this.page({ projectId, limit: PAGE_SIZE, offset, types });
      for (const template of page.head(page.size)) {
        const text = `${template.id}\n${template.name ?? ''}\n${template.description ?? ''}`;
        if (text.toLowerCase().includes(needle)) found.push(template);
      }
      if (page.nextOffset === null || offset + page.size >= page.count) break;
    }
    return found;
  }

  /** GET …/hog_function_templates/:id/. */
  load(projectId: string, id: string): Promise<HogFunctionTemplateRecord> {
    this.retrieveLoader ??= perKeyLoader(async (key: { projectId: string; id: string }) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctionTemplate(key.projectId, key.id),
      });
      return normalizeHogFunctionTemplate(answer.body);
    }, jsonKey);
    return this.retrieveLoader.load({ projectId, id });
  }
}
