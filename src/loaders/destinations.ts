// What a user calls a project's destinations, whichever way PostHog keeps them: the hog functions
// of the destination kinds, and the legacy plugin configs that no enabled `legacy_destination`
// supersedes (same template: `plugin-<repository>`, PR #97648). An upstream without one of the
// two lists (PostHog before hog functions; PostHog after PR #97440) contributes none of it.
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../caller-key.ts';
import type { ConfigRecord, HogFunctionRecord } from '../upstream/records.ts';
import type { Configs } from './configs.ts';
import type { HogFunctions } from './hog-functions.ts';
import type { PluginTemplates } from './plugin-templates.ts';

export type DestinationRecord = ConfigRecord | HogFunctionRecord;

/** The hog function types a user calls destinations. */
export const DESTINATION_TYPES = ['destination', 'site_destination', 'legacy_destination'] as const;
const PAGE_SIZE = 100;
/** Pages of either list read at most (10,000 items). */
const MAX_PAGES = 100;

const isUnsupported = (error: unknown) =>
  error instanceof GraphQLError && error.extensions.code === 'UPSTREAM_UNSUPPORTED';

/** A legacy plugin's template id, from its repository URL. */
const templateOfPlugin = (url: unknown) =>
  typeof url === 'string' && url !== '' ? `plugin-${url.replace(/\/+$/, '').split('/').pop()}` : null;

export class Destinations {
  private readonly read = new Map<string, Promise<DestinationRecord[]>>();

  constructor(
    private readonly configs: Configs,
    private readonly hogFunctions: HogFunctions,
    /** What earlier requests of this key read of plugins (plugin-templates.ts). */
    private readonly templates: PluginTemplates,
    private readonly keyHash: () => KeyHash | null,
  ) {}

  /** Every destination of the project: its hog functions first, then its plugin configs. */
  all(projectId: string, enabled: boolean | null): Promise<DestinationRecord[]> {
    const key = JSON.stringify([projectId, enabled]);
    let found = this.read.get(key);
    if (!found) {
      found = this.readAll(projectId, enabled);
      this.read.set(key, found);
    }
    return found;
  }

  private async readAll(projectId: string, enabled: boolean | null): Promise<DestinationRecord[]> {
    const [functions, configs] = await Promise.all([this.functionsOf(projectId), this.configsOf(projectId)]);
    const superseding = new Set(
      functions
        .filter((f) => f.type === 'legacy_destination' && f.enabled && f.template)
        .map((f) => f.template!.id),
    );
    const kept = superseding.size === 0 ? configs : await this.notSuperseded(configs, superseding);
    const all: DestinationRecord[] = [...functions, ...kept];
    return enabled === null ? all : all.filter((d) => d.enabled === enabled);
  }

  private async functionsOf(projectId: string): Promise<HogFunctionRecord[]> {
    try {
      return await this.everyPage((offset) =>
        this.hogFunctions.page({
          projectId,
          limit: PAGE_SIZE,
          offset,
          filters: { types: DESTINATION_TYPES },
        }),
      );
    } catch (error) {
      if (isUnsupported(error)) return [];
      throw error;
    }
  }

  private async configsOf(projectId: string): Promise<ConfigRecord[]> {
    try {
      return await this.everyPage((offset) => this.configs.page({ projectId, limit: PAGE_SIZE, offset }));
    } catch (error) {
      if (isUnsupported(error)) return [];
      throw error;
    }
  }

  private async everyPage<T>(
    pageAt: (offset: number) => Promise<{ count: number; head(n: number): T[] }>,
  ): Promise<T[]> {
    const first = await pageAt(0);
    // Read now, not after the rest arrive: a page read whole lets its answer's bytes go (pages.ts).
    const items = first.head(PAGE_SIZE);
    const pages = Math.min(MAX_PAGES, Math.ceil(first.count / PAGE_SIZE));
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
        pageAt((i + 1) * PAGE_SIZE).then((page) => page.head(PAGE_SIZE)),
      ),
    );
    return items.concat(...rest);
  }

  /**
   * The configs whose plugin no enabled legacy_destination stands for. A list answer carries no
   * plugin URL: one retrieve per distinct plugin says it (the first config of each plugin), unless
   * an earlier request of this key read that plugin already.
   */
  private async notSuperseded(configs: ConfigRecord[], superseding: Set<string>): Promise<ConfigRecord[]> {
    const key = this.keyHash();
    const templates = new Map<number, string | null>();
    const toRead = new Map<number, ConfigRecord>();
    for (const config of configs) {
      if (templates.has(config.plugin) || toRead.has(config.plugin)) continue;
      const known = key === null ? undefined : this.templates.get(key, config.plugin);
      if (known === undefined) toRead.set(config.plugin, config);
      else templates.set(config.plugin, known);
    }
    await Promise.all(
      [...toRead].map(async ([plugin, config]) => {
        const info = (await this.configs.fieldOf(config, 'pluginInfo')) as { url?: unknown } | null;
        const template = templateOfPlugin(info?.url);
        templates.set(plugin, template);
        if (key !== null) this.templates.set(key, plugin, template);
      }),
    );
    return configs.filter((c) => !superseding.has(templates.get(c.plugin) ?? ''));
  }
}
