// Destination configs as this request reads them: from whatever it already holds (a list answer,
// a write's answer), else by a retrieve (GET …/pipeline_destination_configs/:id/), the one answer
// that carries every field. Fields a list answer leaves out are read by a retrieve when asked for.
import DataLoader from 'dataloader';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeConfig } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ConfigRecord, FrontendRecord } from '../../upstream/posthog/records.ts';
import type { OffsetPage } from '../../upstream/wire/pages.ts';
import type { CurrentProject } from '../current-project.ts';
import { type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';
import { type ConfigKey, configKey } from './listed.ts';
import { ConfigLists, type ConfigPageKey } from './lists.ts';

/** Fields some answers leave out (see ConfigRecord). */
export type FieldListsMayLack = 'pluginInfo' | 'deliveryRate24h';

export class Configs {
  private readonly lists: ConfigLists;
  private retrieveLoader?: PerKeyLoader<ConfigKey, ConfigRecord, string>;
  private heldLoader?: DataLoader<ConfigKey, ConfigRecord, string>;
  private viaListsLoader?: DataLoader<ConfigKey, ConfigRecord, string>;
  private frontendLoader?: PerKeyLoader<ConfigKey, FrontendRecord, string>;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly currentProject: CurrentProject,
  ) {
    this.lists = new ConfigLists(upstream, currentProject);
  }

  /**
   * A config by id. `listFieldsSuffice`: the caller needs no field lists leave out, so a batch
   * that needs several configs of one project may read list pages when that is fewer calls.
   */
  load(key: ConfigKey, { listFieldsSuffice = false } = {}): Promise<ConfigRecord> {
    return listFieldsSuffice ? this.viaLists().load(key) : this.held().load(key);
  }

  /** A page of a project's configs, in the upstream's order. */
  page(key: ConfigPageKey): Promise<OffsetPage<ConfigRecord>> {
    return this.lists.page(key);
  }

  /** A field some answers leave out: read from the record, or from a retrieve of the config. */
  async fieldOf<K extends FieldListsMayLack>(
    config: ConfigRecord,
    field: K,
  ): Promise<NonNullable<ConfigRecord[K]> | null> {
    const value =
      config[field] !== undefined
        ? config[field]
        : (await this.retrieve().load({ projectId: config.projectId, id: config.databaseId }))[field];
    return (value ?? null) as NonNullable<ConfigRecord[K]> | null;
  }

  /** What the upstream serves as the config's frontend (GET …/:id/frontend/). */
  frontend(key: ConfigKey): Promise<FrontendRecord> {
    this.frontendLoader ??= perKeyLoader(async (k: ConfigKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.configFrontend(k.projectId, k.id),
      });
      const isJsonObject = answer.body !== null && typeof answer.body === 'object';
      return {
        contentType: answer.contentType || 'application/octet-stream',
        config: isJsonObject ? normalizeConfig(answer.body, k.projectId, 'frontend') : null,
        source: typeof answer.body === 'string' ? answer.body : null,
      };
    }, configKey);
    return this.frontendLoader.load(key);
  }

  /** After a write: the upstream's answer replaces whatever this request held. */
  replace(record: ConfigRecord): void {
    this.currentProject.learnFrom(record);
    const key = { projectId: record.projectId, id: record.databaseId };
    this.forget(key);
    this.held().prime(key, record);
  }

  /** After a delete, or before a re-read: nothing this request held about the config stands. */
  forget(key: ConfigKey): void {
    this.lists.listed.forget(configKey(key));
    this.retrieveLoader?.clear(key);
    this.heldLoader?.clear(key);
  }

  /** Reads the config again, bypassing what this request held: for writes that answer no body. */
  reread(key: ConfigKey): Promise<ConfigRecord> {
    this.forget(key);
    return this.held().load(key);
  }

  /** Always a GET of the config itself. */
  private retrieve(): PerKeyLoader<ConfigKey, ConfigRecord, string> {
    this.retrieveLoader ??= perKeyLoader(async (key: ConfigKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.config(key.projectId, key.id),
      });
      return this.currentProject.learnFrom(normalizeConfig(answer.body, key.projectId, 'retrieve'));
    }, configKey);
    return this.retrieveLoader;
  }

  /**
   * A config from whatever this request already holds (a list answer, a write), else a
   * retrieve. GraphQL resolves sibling fields concurrently, so a config and a list holding it
   * are often asked for in the same tick: the batch waits for that project's in-flight lists.
   */
  private held(): DataLoader<ConfigKey, ConfigRecord, string> {
    this.heldLoader ??= new DataLoader<ConfigKey, ConfigRecord, string>(
      async (keys) => {
        // Most requests have no list in flight: then there is nothing to wait for.
        if (this.lists.inFlight) await this.lists.settled(new Set(keys.map((k) => k.projectId)));
        return Promise.all(
          keys.map(
            (key) =>
              this.lists.get(key) ??
              this.retrieve()
                .load(key)
                .catch((error: Error) => error),
          ),
        );
      },
      { cacheKeyFn: configKey },
    );
    return this.heldLoader;
  }

  /** Configs as `held` gives them, but several of one project are read from list pages when fewer calls. */
  private viaLists(): DataLoader<ConfigKey, ConfigRecord, string> {
    this.viaListsLoader ??= new DataLoader<ConfigKey, ConfigRecord, string>(
      async (keys) => {
        const byProject = new Map<string, number[]>();
        for (const key of keys)
          byProject.set(key.projectId, [...(byProject.get(key.projectId) ?? []), key.id]);
        await Promise.all(
          [...byProject].map(([projectId, ids]) =>
            // A failed list read is not an answer: each config is then read, and fails, on its own.
            this.lists.readFor(projectId, ids).catch(() => undefined),
          ),
        );
        return this.held().loadMany(keys);
      },
      { cacheKeyFn: configKey },
    );
    return this.viaListsLoader;
  }
}
