// The world the reference upstream starts with, the same at every start (and in every test):
// plugins, organizations, users, the demo keys README lists, and how much each project holds.
import type { ApiKey, Plugin, User } from './model.ts';

export const ORG_A = '018f0a5e-0000-7000-8000-00000000000a';
export const ORG_B = '018f0a5e-0000-7000-8000-00000000000b';

/** Deterministic UUID-shaped identifiers: the same seed gives the same id at every start. */
export function seededUuid(kind: number, n: number): string {
  const hex = (n >>> 0).toString(16).padStart(12, '0');
  return `018f0a5e-${kind.toString(16).padStart(4, '0')}-7000-8000-${hex}`;
}

export const microsOf = (iso: string): number => Date.parse(iso) * 1000;

export const PLUGINS: Plugin[] = [
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

export const PLUGIN_CONFIG_VALUES: Record<number, (n: number) => Record<string, unknown>> = {
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

export const USERS: Omit<User, 'lastViewedActivityMicros'>[] = [
  userSeed(1, 'Ada', 'Lovelace', [ORG_A]),
  userSeed(2, 'Grace', 'Hopper', [ORG_A]),
  userSeed(3, 'Alan', 'Turing', [ORG_A]),
  userSeed(4, 'Katherine', 'Johnson', [ORG_B]),
];

export function userSeed(id: number, first: string, last: string, organizationIds: string[]) {
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
  // Destinations of two kinds but not the third: hog functions and plugins, no batch exports.
  {
    value: 'phx_hog_rw',
    userId: 2,
    scopes: ['hog_function:read', 'hog_function:write', 'plugin:read', 'plugin:write', 'activity_log:read'],
    currentProjectId: 1,
  },
  { value: 'phx_batch_read', userId: 3, scopes: ['batch_export:read'], currentProjectId: 1 },
];

/** How many configs and activity entries each project is seeded with. */
export const SEED_SHAPE = [
  { projectId: 1, configs: 155, entries: 260 },
  { projectId: 2, configs: 6, entries: 12 },
  { projectId: 3, configs: 4, entries: 7 },
];

export const SEED_START_MICROS = microsOf('2025-01-06T09:00:00Z');
export const ACTIVITY_START_MICROS = microsOf('2025-03-01T08:00:00Z');
