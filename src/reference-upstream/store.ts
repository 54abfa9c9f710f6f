// The reference upstream's data: plugins, projects, destination configs, activity entries, users
// and keys, seeded deterministically so that every start (and every test) sees the same world.
// Timestamps are kept as microseconds since the epoch, as PostHog's Postgres does, so that the
// cursor pagination over `created_at` never meets two entries at the same instant.

export interface ConfigField {
  key: string;
  name: string;
  type: 'string' | 'choice' | 'json';
  required?: boolean;
  secret?: boolean;
  default?: string;
}

export interface Plugin {
  id: number;
  plugin_type: 'repository' | 'custom' | 'source';
  name: string;
  description: string;
  url: string;
  icon: string | null;
  tag: string;
  latest_tag: string | null;
  config_schema: ConfigField[];
  public_jobs: Record<string, { payload: Record<string, { type: string; required?: boolean }> }>;
  capabilities: { methods: string[]; jobs: string[] };
  has_frontend: boolean;
}

export interface Organization {
  id: string;
  name: string;
}

export interface Project {
  id: number;
  uuid: string;
  organizationId: string;
  name: string;
  createdAtMicros: number;
}

export interface User {
  id: number;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: boolean;
  hedgehog_config: Record<string, unknown> | null;
  organizationIds: string[];
  /** The last activity notification the user bookmarked, per project. */
  lastViewedActivityMicros: Map<number, number>;
}

export interface ApiKey {
  value: string;
  userId: number;
  /** null for a legacy, unscoped key (it may call everything). */
  scopes: string[] | null;
  /** The project `@current` resolves to. */
  currentProjectId: number;
}

export interface DestinationConfig {
  id: number;
  projectId: number;
  plugin: number;
  enabled: boolean;
  order: number;
  config: Record<string, unknown>;
  error: string | null;
  name: string | null;
  description: string | null;
  deleted: boolean;
  filters: unknown;
  deliveryRate24h: number | null;
  createdAtMicros: number;
  updatedAtMicros: number;
}

export interface ActivityChange {
  type: string;
  action: 'created' | 'changed' | 'deleted';
  field: string | null;
  before: unknown;
  after: unknown;
}

export interface ActivityEntry {
  id: string;
  projectId: number;
  organizationId: string;
  userId: number | null;
  was_impersonated: boolean;
  is_system: boolean;
  activity: string;
  item_id: string | null;
  scope: string;
  detail: unknown;
  createdAtMicros: number;
}

const ORG_A = '018f0a5e-0000-7000-8000-00000000000a';
const ORG_B = '018f0a5e-0000-7000-8000-00000000000b';

/** Deterministic UUID-shaped identifiers: the same seed gives the same id at every start. */
function seededUuid(kind: number, n: number): string {
  const hex = (n >>> 0).toString(16).padStart(12, '0');
  return `018f0a5e-${kind.toString(16).padStart(4, '0')}-7000-8000-${hex}`;
}

const microsOf = (iso: string): number => Date.parse(iso) * 1000;

const PLUGINS: Plugin[] = [
  {
    id: 1,
    plugin_type: 'repository',
    name: 'Webhook Destination',
    description: 'Send every matching event to an HTTP endpoint.',
    url: 'https://github.com/PostHog/webhook-destination',
    icon: null,
    tag: 'a1b2c3d',
    latest_tag: null,
    config_schema: [
      { key: 'url', name: 'Endpoint URL', type: 'string', required: true },
      { key: 'method', name: 'HTTP method', type: 'choice', default: 'POST' },
    ],
    public_jobs: {},
    capabilities: { methods: ['composeWebhook'], jobs: [] },
    has_frontend: false,
  },
  {
    id: 2,
    plugin_type: 'repository',
    name: 'S3 Export',
    description: 'Export events to an S3 bucket in batches.',
    url: 'https://github.com/PostHog/s3-export-plugin',
    icon: null,
    tag: 'e4f5a6b',
    latest_tag: 'e4f5a6c',
    config_schema: [
      { key: 's3BucketName', name: 'Bucket', type: 'string', required: true },
      { key: 'awsRegion', name: 'Region', type: 'string', default: 'us-east-1' },
      { key: 'awsAccessKey', name: 'Access key id', type: 'string', required: true },
      { key: 'awsSecretAccessKey', name: 'Secret access key', type: 'string', required: true, secret: true },
    ],
    public_jobs: {},
    capabilities: { methods: ['onEvent'], jobs: [] },
    has_frontend: false,
  },
  {
    id: 3,
    plugin_type: 'repository',
    name: 'BigQuery Export',
    description: 'Stream events into a BigQuery table.',
    url: 'https://github.com/PostHog/bigquery-plugin',
    icon: null,
    tag: '0c1d2e3',
    latest_tag: null,
    config_schema: [
      { key: 'datasetId', name: 'Dataset', type: 'string', required: true },
      { key: 'tableId', name: 'Table', type: 'string', required: true },
      { key: 'googleCloudKeyJson', name: 'Service account key', type: 'json', secret: true },
    ],
    public_jobs: {
      'Export historical events': {
        payload: { dateFrom: { type: 'date', required: true }, dateTo: { type: 'date', required: true } },
      },
    },
    capabilities: { methods: ['onEvent'], jobs: ['exportHistoricalEvents'] },
    has_frontend: false,
  },
  {
    id: 4,
    plugin_type: 'custom',
    name: 'Slack Alerts',
    description: 'Post a message to Slack when an event matches.',
    url: 'https://github.com/PostHog/slack-alerts',
    icon: null,
    tag: '9f8e7d6',
    latest_tag: null,
    config_schema: [
      { key: 'channel', name: 'Channel', type: 'string', required: true },
      { key: 'webhookSecret', name: 'Signing secret', type: 'string', secret: true },
    ],
    public_jobs: {},
    capabilities: { methods: ['onEvent'], jobs: [] },
    has_frontend: true,
  },
  {
    id: 5,
    plugin_type: 'source',
    name: 'Customer.io Sync',
    description: 'Mirror persons and events into Customer.io.',
    url: 'https://github.com/PostHog/customerio-plugin',
    icon: null,
    tag: '5a4b3c2',
    latest_tag: null,
    config_schema: [{ key: 'siteId', name: 'Site id', type: 'string', required: true }],
    public_jobs: { 'Resync persons': { payload: {} } },
    capabilities: { methods: ['onEvent'], jobs: ['resyncPersons'] },
    has_frontend: true,
  },
];

const PLUGIN_CONFIG_VALUES: Record<number, (n: number) => Record<string, unknown>> = {
  1: (n) => ({ url: `https://hooks.example.com/destination/${n}`, method: n % 2 ? 'POST' : 'PUT' }),
  2: (n) => ({
    s3BucketName: `events-${n}`,
    awsRegion: 'eu-west-1',
    awsAccessKey: `AKIA${String(n).padStart(6, '0')}`,
    awsSecretAccessKey: `s3-secret-${n}`,
  }),
  3: (n) => ({
    datasetId: 'analytics',
    tableId: `events_${n}`,
    googleCloudKeyJson: `{"key":"gcp-secret-${n}"}`,
  }),
  4: (n) => ({ channel: `#alerts-${n}`, webhookSecret: `slack-secret-${n}` }),
  5: (n) => ({ siteId: `site-${n}` }),
};

const USERS: Omit<User, 'lastViewedActivityMicros'>[] = [
  userSeed(1, 'Ada', 'Lovelace', [ORG_A]),
  userSeed(2, 'Grace', 'Hopper', [ORG_A]),
  userSeed(3, 'Alan', 'Turing', [ORG_A]),
  userSeed(4, 'Katherine', 'Johnson', [ORG_B]),
];

function userSeed(id: number, first: string, last: string, organizationIds: string[]) {
  return {
    id,
    uuid: seededUuid(1, id),
    distinct_id: `user-${first.toLowerCase()}-${id}`,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}@example.com`,
    is_email_verified: id !== 3,
    hedgehog_config: id === 1 ? { use_as_profile: true, color: 'blue', accessories: ['beret'] } : null,
    organizationIds,
  };
}

/** The demo keys, as README.md lists them. */
export const DEMO_KEYS: readonly ApiKey[] = [
  { value: 'phx_full', userId: 1, scopes: ['*'], currentProjectId: 1 },
  { value: 'phx_read', userId: 2, scopes: ['plugin:read', 'activity_log:read'], currentProjectId: 1 },
  { value: 'phx_plugin_rw', userId: 3, scopes: ['plugin:read', 'plugin:write'], currentProjectId: 1 },
  { value: 'phx_legacy', userId: 1, scopes: null, currentProjectId: 1 },
  { value: 'phx_other', userId: 4, scopes: ['*'], currentProjectId: 3 },
];

/** How many configs and activity entries each project is seeded with. */
const SEED_SHAPE = [
  { projectId: 1, configs: 155, entries: 260 },
  { projectId: 2, configs: 6, entries: 12 },
  { projectId: 3, configs: 4, entries: 7 },
];

const SEED_START_MICROS = microsOf('2025-01-06T09:00:00Z');
const ACTIVITY_START_MICROS = microsOf('2025-03-01T08:00:00Z');

export class Store {
  readonly plugins = new Map<number, Plugin>();
  readonly organizations = new Map<string, Organization>();
  readonly projects = new Map<number, Project>();
  readonly users = new Map<number, User>();
  readonly keys = new Map<string, ApiKey>();
  readonly configs = new Map<number, DestinationConfig>();
  /** Every project's activity, newest last (appended as writes happen). */
  readonly activity: ActivityEntry[] = [];
  private nextConfigId = 1;
  private nextActivitySeq = 1;
  private lastMicros = 0;

  constructor() {
    for (const plugin of PLUGINS) this.plugins.set(plugin.id, plugin);
    this.organizations.set(ORG_A, { id: ORG_A, name: 'Hedgebox Inc.' });
    this.organizations.set(ORG_B, { id: ORG_B, name: 'Other Co.' });
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
    for (const key of DEMO_KEYS) this.keys.set(key.value, key);
    for (const shape of SEED_SHAPE) this.seedConfigs(shape.projectId, shape.configs);
    for (const shape of SEED_SHAPE) this.seedActivity(shape.projectId, shape.entries);
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

  pushActivity(entry: Omit<ActivityEntry, 'id' | 'organizationId' | 'was_impersonated'>): ActivityEntry {
    const full: ActivityEntry = {
      id: seededUuid(3, this.nextActivitySeq++),
      organizationId: this.projects.get(entry.projectId)!.organizationId,
      was_impersonated: false,
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
