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
  /** Whether its plan includes audit logs: without them PostHog (2026) answers 402 on the activity log. */
  auditLogs: boolean;
}

export interface Project {
  id: number;
  uuid: string;
  organizationId: string;
  name: string;
  createdAtMicros: number;
  /** The team's feature flags that are on (flag_gated_templates.py reads them); none when absent. */
  featureFlags?: readonly string[];
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
  /** UserBasicSerializer's last field since 2026; not set on the seeded users (null). */
  role_at_organization?: string | null;
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
  /** PersonalAPIKey.scoped_teams: the only projects it may reach; none or empty: any. */
  scopedTeams?: number[];
  /** PersonalAPIKey.scoped_organizations (organization UUIDs); none or empty: any. */
  scopedOrganizations?: string[];
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
  /** The x-posthog-client header of the request that made it; null for none (ActivityLog.client). */
  client?: string | null;
  /** How that request was authenticated (ActivityLog.credential_type); null outside a request. */
  credentialType?: string | null;
}

/** One entry of a hog function's `inputs_schema` (posthog/cdp/validation.py, InputsSchemaItemSerializer). */
export interface HogInputSchema {
  key: string;
  type: string;
  label?: string;
  secret?: boolean;
  required?: boolean;
  hidden?: boolean;
  default?: unknown;
  templating?: boolean | string;
  [other: string]: unknown;
}

/** One stored input: {value, bytecode | transpiled, order}, as InputsItemSerializer leaves it. */
export interface HogInput {
  value: unknown;
  order: number;
  templating?: string;
  bytecode?: unknown;
  transpiled?: unknown;
}

export interface HogFunctionTemplate {
  id: string;
  name: string;
  description: string;
  type: string;
  status: string;
  category: string[];
  free: boolean;
  icon_url: string | null;
  hog: string;
  inputs_schema: HogInputSchema[];
}

export interface HogFunction {
  /** A UUID (v7 in PostHog). */
  id: string;
  projectId: number;
  type: string;
  /** null when a create gave none (CharField(null=True) without a default). */
  name: string | null;
  description: string;
  createdAtMicros: number;
  updatedAtMicros: number;
  createdBy: number | null;
  enabled: boolean;
  deleted: boolean;
  hog: string;
  inputsSchema: HogInputSchema[];
  /**
   * Every input by key, secret ones too (PostHog keeps those apart in `encrypted_inputs`; which
   * ones are secret is the schema's business). A secret's value is never answered.
   */
  inputs: Record<string, HogInput>;
  filters: unknown;
  masking: unknown;
  mappings: unknown;
  iconUrl: string | null;
  templateId: string | null;
  /** 0 unknown, 1 healthy, 2 degraded, 3 disabled, 11/12 forcefully degraded/disabled. */
  statusState: number;
  executionOrder: number | null;
  version: number;
  /** HogFunctionRevision rows, oldest first: one per live config change (see hog-function-revisions.ts). */
  revisions?: HogFunctionRevision[];
  /** The config staged for review (draft, draft_updated_at, draft_encrypted_inputs); none when absent or null. */
  draft?: HogFunctionDraft | null;
}

/** A staged draft (see hog-function-draft-state.ts). */
export interface HogFunctionDraft {
  /** A full snapshot of the config fields: hog, inputs_schema, inputs (no secrets), filters, mappings, masking. */
  content: Record<string, unknown>;
  updatedAtMicros: number;
  /** The draft's own secret inputs (draft_encrypted_inputs); null when it stages none. */
  secrets: Record<string, HogInput> | null;
}

export interface HogFunctionRevision {
  version: number;
  createdAtMicros: number;
  createdBy: number | null;
  /** The config snapshot: hog, inputs_schema, inputs (no secrets), filters, mappings, masking. */
  content: Record<string, unknown>;
}

export interface HogFunctionLog {
  functionId: string;
  instanceId: string;
  timestampMicros: number;
  level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  message: string;
}
