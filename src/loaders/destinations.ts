// What a user calls a project's destinations, whichever way PostHog keeps them: the hog functions
// of the destination kinds, the legacy plugin configs that no enabled `legacy_destination`
// supersedes (same template: `plugin-<repository>`, PR #97648), and the batch exports (but for
// PostHog's internal Workflows type). Each kind's list is read whole, page by page, and then
// merged, so the merged list pages correctly (PostHog's own UI could not: issue #42031). An
// upstream without one of the lists (PostHog before hog functions or batch exports; PostHog after
// PR #97440) contributes none of it; a kind the key may not read is left out and reported.
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../caller-key.ts';
import type { BatchExportRecord, ConfigRecord, HogFunctionRecord } from '../upstream/records.ts';
import { type BatchExports, INTERNAL_DESTINATION_TYPE } from './batch-exports.ts';
import type { Configs } from './configs.ts';
import type { HogFunctions } from './hog-functions.ts';
import type { PluginTemplates } from './plugin-templates.ts';

export type DestinationRecord = ConfigRecord | HogFunctionRecord | BatchExportRecord;

/** The kinds of destination, as Project.destinations(kinds:) names them. */
export const DESTINATION_KINDS = ['HOG_FUNCTION', 'PLUGIN_CONFIG', 'BATCH_EXPORT'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** The merged list, and each kind left out because the key may not read it. */
export interface DestinationList {
  items: DestinationRecord[];
  refused: { kind: DestinationKind; error: GraphQLError }[];
}

/** The hog function types a user calls destinations. */
export const DESTINATION_TYPES = ['destination', 'site_destination', 'legacy_destination'] as const;

/** A batch export is enabled while it is not paused. */
const enabledOf = (d: DestinationRecord) => (d.__typename === 'BatchExport' ? !d.paused : d.enabled);
const PAGE_SIZE = 100;
/** Pages of either list read at most (10,000 items). */
const MAX_PAGES = 100;

const isUnsupported = (error: unknown) =>
  error instanceof GraphQLError && error.extensions.code === 'UPSTREAM_UNSUPPORTED';
/** The key's limits, not the upstream's trouble: the kind is left out, the rest is listed. */
const isRefusal = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError &&
  (error.extensions.code === 'FORBIDDEN' || error.extensions.code === 'PAYMENT_REQUIRED');

/** A kind's list: its items, or the key's refusal; an upstream without the list has none. */
async function kindOf<T>(kind: DestinationKind, read: () => Promise<T[]>) {
  try {
    return { kind, items: await read(), error: null };
  } catch (error) {
    if (isUnsupported(error)) return { kind, items: [] as T[], error: null };
    if (isRefusal(error)) return { kind, items: [] as T[], error };
    throw error;
  }
}

/** A legacy plugin's template id, from its repository URL. */
const templateOfPlugin = (url: unknown) =>
  typeof url === 'string' && url !== '' ? `plugin-${url.replace(/\/+$/, '').split('/').pop()}` : null;

export class Destinations {
  private readonly read = new Map<string, Promise<DestinationList>>();

  constructor(
    private readonly configs: Configs,
    private readonly hogFunctions: HogFunctions,
    private readonly batchExports: BatchExports,
    /** What earlier requests of this key read of plugins (plugin-templates.ts). */
    private readonly templates: PluginTemplates,
    private readonly keyHash: () => KeyHash | null,
  ) {}

  /** The project's destinations of `kinds`: hog functions, then plugin configs, then batch exports. */
  all(
    projectId: string,
    enabled: boolean | null,
    kinds: readonly DestinationKind[],
  ): Promise<DestinationList> {
    const key = JSON.stringify([projectId, enabled, kinds]);
    let found = this.read.get(key);
    if (!found) {
      found = this.readAll(projectId, enabled, new Set(kinds));
      this.read.set(key, found);
    }
    return found;
  }

  private async readAll(projectId: string, enabled: boolean | null, kinds: Set<DestinationKind>) {
    // Configs are superseded by enabled legacy_destination functions: read those for them too.
    const needFunctions = kinds.has('HOG_FUNCTION') || kinds.has('PLUGIN_CONFIG');
    const [functions, configs, exports] = await Promise.all([
      needFunctions ? kindOf('HOG_FUNCTION', () => this.functionsOf(projectId)) : null,
      kinds.has('PLUGIN_CONFIG') ? kindOf('PLUGIN_CONFIG', () => this.configsOf(projectId)) : null,
      kinds.has('BATCH_EXPORT') ? kindOf('BATCH_EXPORT', () => this.exportsOf(projectId)) : null,
    ]);
    const superseding = new Set(
      (functions?.items ?? [])
        .filter((f) => f.type === 'legacy_destination' && f.enabled && f.template)
        .map((f) => f.template!.id),
    );
    const configItems = configs?.items ?? [];
    const kept = superseding.size === 0 ? configItems : await this.notSuperseded(configItems, superseding);
    const all: DestinationRecord[] = [
      ...(kinds.has('HOG_FUNCTION') ? (functions?.items ?? []) : []),
      ...kept,
      ...(exports?.items ?? []),
    ];
    const refused = [kinds.has('HOG_FUNCTION') ? functions : null, configs, exports].flatMap((k) =>
      k?.error ? [{ kind: k.kind, error: k.error as GraphQLError }] : [],
    );
    const items = enabled === null ? all : all.filter((d) => enabledOf(d) === enabled);
    return { items, refused };
  }

  private async functionsOf(projectId: string): Promise<HogFunctionRecord[]> {
    return this.everyPage((offset) =>
      this.hogFunctions.page({
        projectId,
        limit: PAGE_SIZE,
        offset,
        filters: { types: DESTINATION_TYPES },
      }),
    );
  }

  private configsOf(projectId: string): Promise<ConfigRecord[]> {
    return this.everyPage((offset) => this.configs.page({ projectId, limit: PAGE_SIZE, offset }));
  }

  /** The batch exports PostHog lists, but for its internal Workflows type (hidden there too). */
  private async exportsOf(projectId: string): Promise<BatchExportRecord[]> {
    const exports = await this.everyPage((offset) =>
      this.batchExports.page({ projectId, limit: PAGE_SIZE, offset }),
    );
    return exports.filter((e) => e.destinationType !== INTERNAL_DESTINATION_TYPE);
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
