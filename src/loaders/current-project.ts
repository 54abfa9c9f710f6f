// What `@current` stands for in this request. Global ids and cursors never hold `@current` (it
// means another project for another key), so it is resolved when one is needed: from the team_id
// of a config read through it, else by GET /api/projects/@current/ (once a request).
import { GraphQLError } from 'graphql';
import { CURRENT_PROJECT } from '../core/ids.ts';
import type { ConfigRecord } from '../upstream/posthog/records.ts';
import type { OffsetPage } from '../upstream/wire/pages.ts';
import type { Projects } from './projects.ts';

export class CurrentProject {
  /** The numeric id `@current` stands for, once known. */
  private numeric: string | null = null;

  constructor(private readonly projects: Projects) {}

  /** Learns what `@current` stands for from a config read through it. Returns the record. */
  learnFrom(record: ConfigRecord): ConfigRecord {
    if (record.projectId === CURRENT_PROJECT && this.numeric === null && record.teamId !== null) {
      this.numeric = String(record.teamId);
    }
    return record;
  }

  /** Learns it from the team of a list page's first config (read through `@current`). */
  learnFromPage(page: OffsetPage<ConfigRecord>): void {
    try {
      // A list whose count cannot be right tells nothing (upstream/wire/pages.ts: this throws).
      void page.count;
      if (page.has(0)) page.at(0); // normalising it learns the project
    } catch {
      // A malformed first entry tells nothing here; it fails, alone, where a field reads it.
    }
  }

  /** The numeric id of a project as addressed; only `@current` may cost a call, once a request. */
  numericId(projectId: string): string | Promise<string> {
    if (projectId !== CURRENT_PROJECT) return projectId;
    if (this.numeric !== null) return this.numeric;
    return this.projects.load(CURRENT_PROJECT).then((record) => (this.numeric ??= record.id!));
  }

  /**
   * The project a list's cursors name: the numeric id, or `@current` itself for a key that may
   * read the list but not the project (a key with `activity_log:read` alone): its cursors then
   * page only lists read through `@current`.
   */
  cursorId(projectId: string): string | Promise<string> {
    const id = this.numericId(projectId);
    if (!(id instanceof Promise)) return id;
    return id.catch((error: unknown) => {
      if (error instanceof GraphQLError && error.extensions.code === 'FORBIDDEN') return projectId;
      throw error;
    });
  }

  /** Whether two project ids as addressed (either may be `@current`) name one project. */
  async isSameProject(a: string, b: string): Promise<boolean> {
    if (a === b) return true;
    const [x, y] = await Promise.all([this.numericId(a), this.numericId(b)]);
    return x === y;
  }
}
