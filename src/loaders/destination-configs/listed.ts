// The configs one GraphQL request has seen in list answers, found by project and id, so that a
// config listed once is not retrieved again. A list page parses a config only when it is read
// (upstream/wire/pages.ts): an activity page's cross-link names only some configs of a page, and
// parsing them all and holding them to the request's end would be most of the heap that page's
// operations hold under load. Pages are indexed by id only when a by-id read first asks, so a
// connection that only lists (a page read whole) never pays for an index.

import type { ConfigRecord } from '../../upstream/posthog/records.ts';
import type { OffsetPage } from '../../upstream/wire/pages.ts';

export interface ConfigKey {
  projectId: string;
  id: number;
}

export const configKey = (key: ConfigKey) => `${key.projectId}/${key.id}`;

export class ListedConfigs {
  /** Where each config is: its page and its index there, by configKey. */
  private readonly where = new Map<string, { page: OffsetPage<ConfigRecord>; index: number }>();
  /** Pages not yet indexed, in the order they arrived: the first page to list a config wins. */
  private readonly pending: { projectId: string; page: OffsetPage<ConfigRecord> }[] = [];

  add(projectId: string, page: OffsetPage<ConfigRecord>): void {
    this.pending.push({ projectId, page });
  }

  has(key: string): boolean {
    this.index();
    return this.where.has(key);
  }

  /**
   * The listed config, parsed now. undefined when no list carried it, or the upstream malformed
   * that entry: the config is then retrieved, as all were when a malformed list failed whole.
   */
  get(key: string): ConfigRecord | undefined {
    this.index();
    const found = this.where.get(key);
    if (found === undefined) return undefined;
    try {
      const record = found.page.at(found.index);
      // An entry naming `id` twice was indexed by its first; JSON.parse keeps the last.
      return configKey({ projectId: record.projectId, id: record.databaseId }) === key ? record : undefined;
    } catch {
      return undefined;
    }
  }

  /** After a write or a delete: what the lists said about the config no longer stands. */
  forget(key: string): void {
    this.index();
    this.where.delete(key);
  }

  private index(): void {
    if (this.pending.length === 0) return; // the usual case once indexed: nothing to allocate
    for (const { projectId, page } of this.pending.splice(0)) {
      // A list whose count cannot be right is no answer (upstream/wire/pages.ts): nothing of it is found.
      if (!countHolds(page)) continue;
      for (let index = 0; page.has(index); index++) {
        // An entry read already gives its id parsed; the others are read for their id alone.
        const id = page.isRead(index) ? page.at(index).databaseId : page.member(index, 'id');
        // An entry with no integer id is found by no id: read by id, it is retrieved alone.
        if (typeof id !== 'number' || !Number.isInteger(id)) continue;
        const key = configKey({ projectId, id });
        if (!this.where.has(key)) this.where.set(key, { page, index });
      }
    }
  }
}

/** Whether the page's list count holds (it is checked when first asked for). */
function countHolds(page: OffsetPage<ConfigRecord>): boolean {
  try {
    void page.count;
    return true;
  } catch {
    return false;
  }
}
