// What a user calls a project's destinations, whichever way PostHog keeps them: the hog functions
// of the destination kinds, the legacy plugin configs that no enabled `legacy_destination`
// supersedes (same template, `plugin-<plugin id>` as PostHog's migration forms it; PR #97648), and the batch exports (but for
// PostHog's internal Workflows type), merged in that order into one list that pages correctly
// across kinds (PostHog's own UI could not: issue #42031). A page reads what it covers: each
// kind's first page says its count, and a window reads only the pages it reaches
// (destination-kinds.ts), so `destinations(first: 20)` costs the same whatever the project's
// size. A kind PostHog cannot filter as the list needs (configs while a legacy_destination
// supersedes some; `enabled` on configs or batch exports) is read whole. An upstream without one
// of the lists (PostHog before hog functions or batch exports; PostHog after PR #97440)
// contributes none of it; a kind the key may not read is left out and reported. A search goes to
// PostHog's hog function list and is repeated here for the lists without one; a sorted list reads
// every kind whole (destination-order.ts).
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../core/caller-key.ts';
import type { BatchExportRecord, ConfigRecord, HogFunctionRecord } from '../upstream/posthog/records.ts';
import { type BatchExports, INTERNAL_DESTINATION_TYPE } from './batch-exports/exports.ts';
import type { Configs } from './destination-configs/configs.ts';
import { everyPage, type KindList, PAGE_SIZE, pagedKind, wholeKind } from './destination-kinds.ts';
import { type DestinationOrder, matchesSearch } from './destination-order.ts';
import { type DestinationWindow, type KindRead, merged, sortedWindow } from './destination-window.ts';
import type { HogFunctions } from './hog-functions/functions.ts';
import type { PluginTemplates } from './plugin-templates.ts';

export type DestinationRecord = ConfigRecord | HogFunctionRecord | BatchExportRecord;

/** The kinds of destination, as Project.destinations(kinds:) names them. */
export const DESTINATION_KINDS = ['HOG_FUNCTION', 'PLUGIN_CONFIG', 'BATCH_EXPORT'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** What Project.destinations asks for: `search` normalised (destination-order.ts), `order` null for the default. */
export interface DestinationQuery {
  enabled: boolean | null;
  kinds: readonly DestinationKind[];
  search: string | null;
  order: DestinationOrder | null;
  /** Kinds the key's known grant may not read, each with its refusal: reported, not asked of PostHog. */
  refused?: ReadonlyMap<DestinationKind, GraphQLError>;
}

/** The hog function types a user calls destinations. */
export const DESTINATION_TYPES = ['destination', 'site_destination', 'legacy_destination'] as const;

/** A batch export is enabled while it is not paused. */
const enabledOf = (d: ConfigRecord | BatchExportRecord) =>
  d.__typename === 'BatchExport' ? !d.paused : d.enabled;
const isUserExport = (e: BatchExportRecord) => e.destinationType !== INTERNAL_DESTINATION_TYPE;

const isUnsupported = (error: unknown) =>
  error instanceof GraphQLError && error.extensions.code === 'UPSTREAM_UNSUPPORTED';
/** The key's limits, not the upstream's trouble: the kind is left out, the rest is listed. */
const isRefusal = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError &&
  (error.extensions.code === 'FORBIDDEN' || error.extensions.code === 'PAYMENT_REQUIRED');

/** A kind's list, or the key's refusal of it; an upstream without the list has none. */
async function kindOf(
  kind: DestinationKind,
  read: () => Promise<KindList<DestinationRecord>>,
): Promise<KindRead> {
  try {
    return { kind, list: await read(), error: null };
  } catch (error) {
    if (isUnsupported(error)) return { kind, list: wholeKind([]), error: null };
    if (isRefusal(error)) return { kind, list: wholeKind([]), error };
    throw error;
  }
}

/** PLUGIN_ID_OVERRIDES: plugins whose bundled template is named otherwise than their URL. */
const PLUGIN_ID_OVERRIDES: Record<string, string> = {
  'semver-flattener': 'semver-flattener-plugin',
  'user-agent': 'user-agent-plugin',
};

/**
 * A legacy plugin's template id, from its URL, as PostHog's migration forms it
 * (posthog/cdp/legacy_destination_migration.py@7cc81e8, `plugin_id_from_url`): the URL less
 * `inline://` and `https://github.com/PostHog/`, then the overrides. A plugin without a URL has none.
 */
export function templateOfPlugin(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  const id = url.replaceAll('inline://', '').replaceAll('https://github.com/PostHog/', '');
  return `plugin-${PLUGIN_ID_OVERRIDES[id] ?? id}`;
}

export class Destinations {
  private readonly read = new Map<string, Promise<DestinationWindow>>();

  constructor(
    private readonly configs: Configs,
    private readonly hogFunctions: HogFunctions,
    private readonly batchExports: BatchExports,
    /** What earlier requests of this key read of plugins (plugin-templates.ts). */
    private readonly templates: PluginTemplates,
    private readonly keyHash: () => KeyHash | null,
  ) {}

  /** The project's destinations as `query` asks: by default hog functions, then plugin configs, then batch exports. */
  window(projectId: string, query: DestinationQuery): Promise<DestinationWindow> {
    const key = JSON.stringify([projectId, query.enabled, query.kinds, query.search, query.order]);
    let found = this.read.get(key);
    if (!found) {
      found = this.readWindow(projectId, query);
      this.read.set(key, found);
    }
    return found;
  }

  private async readWindow(projectId: string, query: DestinationQuery) {
    const { enabled, search, order } = query;
    const refused = query.refused ?? new Map<DestinationKind, GraphQLError>();
    // A kind refused already is not asked; the others are read as PostHog answers them.
    const kinds = new Set(query.kinds.filter((kind) => !refused.has(kind)));
    const functions = kinds.has('HOG_FUNCTION') ? this.functionsOf(projectId, enabled, search) : null;
    // A searched page of functions does not hold the legacy_destinations that supersede configs.
    const superseding = search === null ? (functions?.catch(() => null) ?? null) : null;
    const readsFunctions = !refused.has('HOG_FUNCTION');
    const reads = await Promise.all([
      functions && kindOf('HOG_FUNCTION', async () => (await functions).list),
      kinds.has('PLUGIN_CONFIG') &&
        kindOf('PLUGIN_CONFIG', () =>
          this.configsOf(projectId, enabled, search, superseding, readsFunctions),
        ),
      kinds.has('BATCH_EXPORT') && kindOf('BATCH_EXPORT', () => this.exportsOf(projectId, enabled, search)),
      ...query.kinds
        .filter((kind) => refused.has(kind))
        .map((kind): KindRead => ({ kind, list: wholeKind([]), error: refused.get(kind)! })),
    ]);
    const kept = reads.filter((r): r is KindRead => Boolean(r));
    return order === null ? merged(kept) : sortedWindow(kept, order);
  }

  /** PostHog searches functions itself; its trigram-`similar` tier (no exact match) is not kept. */
  private async functionsOf(projectId: string, enabled: boolean | null, search: string | null) {
    const paged = await pagedKind<DestinationRecord>((offset) =>
      this.hogFunctions.page({
        projectId,
        limit: PAGE_SIZE,
        offset,
        // No `search` key unsearched: the same page as other readers of the list ask for.
        filters:
          search === null
            ? { types: DESTINATION_TYPES, enabled }
            : { types: DESTINATION_TYPES, enabled, search },
      }),
    );
    const top = search !== null && paged.first.has(0) ? paged.first.at(0) : null;
    return top && !matchesSearch(top, search!) ? { ...paged, list: wholeKind<DestinationRecord>([]) } : paged;
  }

  /**
   * The plugin configs no enabled legacy_destination supersedes: paged as PostHog counts them
   * while none does and neither `enabled` nor `search` is asked for, else read whole and filtered here.
   */
  private async configsOf(
    projectId: string,
    enabled: boolean | null,
    search: string | null,
    functions: Promise<{ first: { count: number; head(n: number): DestinationRecord[] } } | null> | null,
    readsFunctions: boolean,
  ): Promise<KindList<DestinationRecord>> {
    const superseding = readsFunctions
      ? await this.supersedingTemplates(projectId, enabled, functions)
      : new Set<string>();
    const pageAt = (offset: number) => this.configs.page({ projectId, limit: PAGE_SIZE, offset });
    if (superseding.size === 0 && enabled === null && search === null)
      return (await pagedKind<DestinationRecord>(pageAt)).list;
    const all = (await everyPage(pageAt)).filter((c) => search === null || matchesSearch(c, search));
    const kept = superseding.size === 0 ? all : await this.notSuperseded(all, superseding);
    return wholeKind(enabled === null ? kept : kept.filter((c) => enabledOf(c) === enabled));
  }

  /**
   * The templates of the project's enabled legacy_destination functions: from the destinations'
   * first page when it holds them all (the usual case: no extra call), else read on their own.
   */
  private async supersedingTemplates(
    projectId: string,
    enabled: boolean | null,
    functions: Promise<{ first: { count: number; head(n: number): DestinationRecord[] } } | null> | null,
  ): Promise<Set<string>> {
    const listed = enabled !== false ? await functions : null;
    const candidates =
      listed && listed.first.count <= PAGE_SIZE
        ? listed.first.head(PAGE_SIZE)
        : await everyPage<DestinationRecord>((offset) =>
            this.hogFunctions.page({
              projectId,
              limit: PAGE_SIZE,
              offset,
              filters: { types: ['legacy_destination'], enabled: true },
            }),
          ).catch((error) => {
            // A key that may not read hog functions is told so at that kind; its configs are listed
            // as PostHog's config list answers them (what supersedes them is not the key's to read).
            if (isUnsupported(error) || isRefusal(error)) return [];
            throw error;
          });
    return new Set(
      (candidates as HogFunctionRecord[])
        .filter((f) => f.type === 'legacy_destination' && f.enabled && f.template)
        .map((f) => f.template!.id),
    );
  }

  /** The batch exports PostHog lists, but for its internal Workflows type (hidden there too). */
  private async exportsOf(
    projectId: string,
    enabled: boolean | null,
    search: string | null,
  ): Promise<KindList<DestinationRecord>> {
    const pageAt = (offset: number) => this.batchExports.page({ projectId, limit: PAGE_SIZE, offset });
    if (enabled === null && search === null) {
      const keep = (e: DestinationRecord) => isUserExport(e as BatchExportRecord);
      return (await pagedKind<DestinationRecord>(pageAt, keep)).list;
    }
    const all = (await everyPage(pageAt)).filter(
      (e) => isUserExport(e) && (search === null || matchesSearch(e, search)),
    );
    return wholeKind(enabled === null ? all : all.filter((e) => enabledOf(e) === enabled));
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
