// The reference upstream's records: what it stores, in the shapes it stores them.

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
