// The reference upstream's data: plugins, projects, destination configs, activity entries, users
// and keys, seeded deterministically so that every start (and every test) sees the same world.
// Timestamps are kept as microseconds since the epoch, as PostHog's Postgres does, so that the
// cursor pagination over `created_at` never meets two entries at the same instant.
import { BatchExportRecords } from './batch-exports/model.ts';
import { seedBatchExports } from './batch-exports/seed.ts';
import type { Dialect } from './dialect.ts';
import { seedHogWorld } from './hog-functions/seed.ts';
import type {
  ActivityChange,
  ActivityEntry,
  ApiKey,
  DestinationConfig,
  HogFunction,
  HogFunctionLog,
  Organization,
  Plugin,
  Project,
  User,
} from './model.ts';
import {
  ACTIVITY_START_MICROS,
  DEMO_KEYS,
  ORG_A,
  ORG_B,
  PLUGIN_CONFIG_VALUES,
  PLUGINS,
  SEED_SHAPE,
  SEED_START_MICROS,
  seededUuid,
  USERS,
} from './seed.ts';

export class Store {
  readonly plugins = new Map<number, Plugin>();
  readonly organizations = new Map<string, Organization>();
  readonly projects = new Map<number, Project>();
  readonly users = new Map<number, User>();
  readonly keys = new Map<string, ApiKey>();
  readonly configs = new Map<number, DestinationConfig>();
  /** Hog functions by UUID (the 2026 dialect only). */
  readonly hogFunctions = new Map<string, HogFunction>();
  /** Their logs, oldest first. */
  readonly hogLogs: HogFunctionLog[] = [];
  /** Every project's activity, newest last (appended as writes happen). */
  readonly activity: ActivityEntry[] = [];
  /** A broken upstream (test double): the 2026 dialect answers secret values in plain text. */
  leakSecrets = false;
  /** Any key of this prefix authenticates, with every scope (http/prefixed-keys.ts); null: none. */
  anyKeyPrefix: string | null = null;
  /** Batch exports, their runs and backfills (the 2026 dialect only). */
  readonly batchExports = new BatchExportRecords();
  private nextConfigId = 1;
  private nextActivitySeq = 1;
  private lastMicros = 0;

  constructor(readonly dialect: Dialect = 'spec') {
    for (const plugin of PLUGINS) this.plugins.set(plugin.id, plugin);
    this.organizations.set(ORG_A, { id: ORG_A, name: 'Hedgebox Inc.', auditLogs: true });
    // Other Co.'s plan has no audit logs (what the 2026 dialect's 402 is tested on).
    this.organizations.set(ORG_B, { id: ORG_B, name: 'Other Co.', auditLogs: false });
    const projectNames = ['Hedgebox (production)', 'Hedgebox (staging)', 'Other Co. web'];
    for (const [index, name] of projectNames.entries()) {
      const id = index + 1;
      this.projects.set(id, {
        id,
        uuid: seededUuid(2, id),
        organizationId: id === 3 ? ORG_B : ORG_A,
        name,
        createdAtMicros: SEED_START_MICROS - 86_400_000_000 * (30 - id),
      });
    }
    for (const user of USERS) this.users.set(user.id, { ...user, lastViewedActivityMicros: new Map() });
    for (const key of DEMO_KEYS) {
      // PostHog turned unscoped legacy keys into `*` keys in March 2026.
      const scopes = dialect === 'posthog-2026' && key.scopes === null ? ['*'] : key.scopes;
      this.keys.set(key.value, { ...key, scopes });
    }
    for (const shape of SEED_SHAPE) this.seedConfigs(shape.projectId, shape.configs);
    for (const shape of SEED_SHAPE) this.seedActivity(shape.projectId, shape.entries);
    if (dialect === 'posthog-2026') seedHogWorld(this, ACTIVITY_START_MICROS);
    if (dialect === 'posthog-2026') seedBatchExports(this, Date.now() * 1000);
    this.lastMicros = Math.max(...this.activity.map((e) => e.createdAtMicros));
  }

  private seedConfigs(projectId: number, count: number): void {
    for (let n = 0; n < count; n++) {
      const id = this.nextConfigId++;
      const plugin = (id % PLUGINS.length) + 1;
      const created = SEED_START_MICROS + id * 3_600_000_000;
      this.configs.set(id, {
        id,
        projectId,
        plugin,
        // Not all distinct: the upstream's ordering falls back to the plugin id, then the id.
        enabled: id % 7 !== 0,
        order: ((id * 7) % 60) + 1,
        config: PLUGIN_CONFIG_VALUES[plugin]!(id),
        error: id % 23 === 0 ? 'Error: connect ETIMEDOUT' : null,
        name: `${PLUGINS[plugin - 1]!.name} #${id}`,
        description: id % 5 === 0 ? '' : `Destination ${id} of project ${projectId}`,
        deleted: projectId === 1 && id % 31 === 0,
        filters:
          id % 3 === 0
            ? { events: [{ id: '$pageview', name: '$pageview', type: 'events', order: 0 }] }
            : null,
        deliveryRate24h: id % 7 === 0 ? null : ((id * 37) % 101) / 100,
        createdAtMicros: created,
        updatedAtMicros: created + 600_000_000,
      });
    }
  }

  private seedActivity(projectId: number, count: number): void {
    const projectConfigs = [...this.configs.values()].filter((c) => c.projectId === projectId);
    const org = this.projects.get(projectId)!.organizationId;
    const orgUsers = [...this.users.values()].filter((u) => u.organizationIds.includes(org));
    for (let n = 0; n < count; n++) {
      // Odd microseconds keep every instant distinct even against entries written later.
      const at = ACTIVITY_START_MICROS + projectId * 1_000 + n * 2_220_000_000 + ((n * 7919) % 1_000_000);
      const system = n % 11 === 0;
      const userId = system ? null : orgUsers[n % orgUsers.length]!.id;
      // Three in five entries are about configs, so a filtered list still spans several pages.
      const kind = n % 5 < 3 ? 0 : n % 5 === 3 ? 1 : 2;
      if (kind === 0) {
        // Entries about configs come from a small set, so a page of them is about few configs.
        const config = projectConfigs[n % Math.min(10, projectConfigs.length)]!;
        const activity = ['updated', 'enabled', 'disabled', 'job_triggered'][n % 4]!;
        this.pushActivity({
          projectId,
          userId,
          is_system: system,
          activity,
          scope: 'PluginConfig',
          item_id: String(config.id),
          detail: configDetail(config, [
            { type: 'PluginConfig', action: 'changed', field: 'order', before: n, after: n + 1 },
          ]),
          createdAtMicros: at,
        });
      } else if (kind === 1) {
        const flag = (n % 17) + 1;
        this.pushActivity({
          projectId,
          userId,
          is_system: system,
          activity: n % 4 === 1 ? 'created' : 'updated',
          scope: 'FeatureFlag',
          item_id: String(flag),
          detail: {
            id: flag,
            name: `flag-${flag}`,
            short_id: null,
            type: null,
            trigger: null,
            changes:
              n % 4 === 1
                ? null
                : [{ type: 'FeatureFlag', action: 'changed', field: 'active', before: false, after: true }],
          },
          createdAtMicros: at,
        });
      } else {
        const insight = (n % 23) + 1;
        this.pushActivity({
          projectId,
          userId,
          is_system: system,
          activity: n % 5 === 0 ? 'exported' : 'updated',
          scope: 'Insight',
          item_id: String(insight),
          detail: {
            id: insight,
            name: `Weekly signups ${insight}`,
            short_id: `ins${String(insight).padStart(5, '0')}`,
            type: null,
            trigger: null,
            changes: null,
          },
          createdAtMicros: at,
        });
      }
    }
  }

  /** A moment strictly after every recorded one, so cursors over `created_at` stay exact. */
  nowMicros(): number {
    this.lastMicros = Math.max(Date.now() * 1000, this.lastMicros + 1);
    return this.lastMicros;
  }

  /**
   * The request being answered, while its handler runs (handlers answer synchronously: api-handler.ts
   * sets it around one): what the activity entries it makes record as their client and credential.
   */
  requestOrigin: { client: string | null; credentialType: string } | null = null;

  pushActivity(entry: Omit<ActivityEntry, 'id' | 'organizationId' | 'was_impersonated'>): ActivityEntry {
    const full: ActivityEntry = {
      id: seededUuid(3, this.nextActivitySeq++),
      organizationId: this.projects.get(entry.projectId)!.organizationId,
      was_impersonated: false,
      client: this.requestOrigin?.client ?? null,
      credentialType: this.requestOrigin?.credentialType ?? null,
      ...entry,
    };
    this.activity.push(full);
    return full;
  }

  createConfig(
    fields: Omit<DestinationConfig, 'id' | 'createdAtMicros' | 'updatedAtMicros'>,
  ): DestinationConfig {
    const now = this.nowMicros();
    const config: DestinationConfig = {
      ...fields,
      id: this.nextConfigId++,
      createdAtMicros: now,
      updatedAtMicros: now,
    };
    this.configs.set(config.id, config);
    return config;
  }
}

export function configDetail(config: DestinationConfig, changes: ActivityChange[] | null) {
  return {
    id: config.id,
    name: config.name,
    short_id: null,
    type: null,
    trigger: null,
    changes,
  };
}
