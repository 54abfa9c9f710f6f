// Projects as this request has read them: by id (GET /api/projects/:id/) and as list pages
// (GET /api/projects/), each page priming the by-id reads.
import type { CallerUpstream } from '../upstream/call.ts';
import { normalizeProject } from '../upstream/posthog/normalize.ts';
import { PATHS } from '../upstream/posthog/paths.ts';
import type { ProjectRecord } from '../upstream/posthog/records.ts';
import { normalizeOffsetPage, type OffsetPage } from '../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from './per-key-loader.ts';

export interface PageKey {
  limit: number;
  offset: number;
}

export class Projects {
  private byIdLoader?: PerKeyLoader<string, ProjectRecord>;
  private pageLoader?: PerKeyLoader<PageKey, OffsetPage<ProjectRecord>, string>;

  constructor(private readonly upstream: CallerUpstream) {}

  /** A project by id as addressed (an integer or `@current`). */
  load(projectId: string): Promise<ProjectRecord> {
    return this.byId().load(projectId);
  }

  /** A project's name: from the record when its answer carried it, else read by id. */
  async nameOf(project: ProjectRecord): Promise<string | null> {
    if (project.name !== undefined) return project.name;
    return (await this.load(project.projectId)).name ?? null;
  }

  /** A page of the projects the key can see. */
  page(key: PageKey): Promise<OffsetPage<ProjectRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ limit, offset }: PageKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.projects(),
        query: { limit, offset },
        parseAnswer: false,
      });
      const page = normalizeOffsetPage(answer, (raw) => normalizeProject(raw), offset, PATHS.projects());
      // A page of projects is short, and each primes the by-id loader: read them all.
      for (const record of page.head(limit)) this.prime(record);
      return page;
    }, jsonKey);
    return this.pageLoader.load(key);
  }

  private prime(record: ProjectRecord): void {
    this.byId().prime(record.projectId, record);
  }

  /** Made on first use, as every loader here: most requests need few of them. */
  private byId(): PerKeyLoader<string, ProjectRecord> {
    this.byIdLoader ??= perKeyLoader(async (id: string) => {
      const answer = await this.upstream.request({ method: 'GET', path: PATHS.project(id) });
      return normalizeProject(answer.body, id);
    });
    return this.byIdLoader;
  }
}
