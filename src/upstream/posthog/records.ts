// The records the gateway makes of the upstream's answers: one shape whatever the dialect
// (docs/upstream.md). A record says which fields its answer did not carry
// (`undefined`), so a loader can fetch them rather than answer a wrong null.

import type { HogFunctionDraftRecord } from './hog-function-history.ts';

/** Which operation a config came from; it decides which fields the answer carries. */
export type ConfigSource = 'list' | 'retrieve' | 'write' | 'rearrange' | 'frontend';

export interface ProjectRecord {
  readonly __typename: 'Project';
  /** As the caller addressed it: an integer id or `@current`. */
  projectId: string;
  /** The numeric id, once an answer about the project carried it (what `@current` stands for). */
  id?: string;
  /** undefined until an answer about the project carried it. */
  name?: string | null;
}

export interface ConfigRecord {
  readonly __typename: 'DestinationConfig';
  /** The project as addressed in the path the config was read through. */
  projectId: string;
  databaseId: number;
  plugin: number;
  enabled: boolean;
  order: number;
  name: string | null;
  description: string | null;
  deleted: boolean;
  filters: unknown;
  config: unknown;
  error: unknown;
  teamId: number | null;
  /** undefined: this answer did not carry it (PostHog's list and rearrange answers). */
  pluginInfo: unknown;
  /** undefined: this answer did not carry it (PostHog has it on list and retrieve only). */
  deliveryRate24h: number | null | undefined;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface ActivityUserRecord {
  id: number | null;
  uuid: string | null;
  distinctId: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  isEmailVerified: boolean | null;
  hedgehogConfig: unknown;
}

export interface ActivityEntryRecord {
  readonly __typename: 'ActivityLogEntry';
  projectId: string;
  id: string;
  user: ActivityUserRecord | null;
  unread: boolean;
  organizationId: string | null;
  wasImpersonated: boolean | null;
  isSystem: boolean | null;
  activity: string;
  itemId: string | null;
  scope: string;
  detail: unknown;
  createdAt: string;
  /** The x-posthog-client header of the change's request, as PostHog records it; null for none. */
  client: string | null;
  /** How the change was authenticated (PostHog's credential_type); null where not recorded. */
  credentialType: string | null;
}

export interface FrontendRecord {
  contentType: string;
  config: ConfigRecord | null;
  source: string | null;
}

export interface ImportantChangesRecord {
  entries: ActivityEntryRecord[];
  lastRead: string | null;
}

/** A template as PostHog's HogFunctionTemplateSerializer answers it, listed or nested in a function. */
export interface HogFunctionTemplateRecord {
  readonly __typename: 'HogFunctionTemplate';
  id: string;
  name: string | null;
  description: string | null;
  code: string | null;
  codeLanguage: string | null;
  inputsSchema: unknown;
  type: string | null;
  status: string | null;
  category: unknown;
  free: boolean | null;
  iconUrl: string | null;
  filters: unknown;
  masking: unknown;
  mappingTemplates: unknown;
}

/**
 * A function's mappings as the upstream answered them, secrets and all: PostHog keeps a mapping's
 * secret inputs in plain text (mappings have no encrypted column) and cannot resolve a
 * {"secret": true} sent back in one, so a test run by id sends these to the upstream they came
 * from. Keyed by a symbol: JSON.stringify and the schema never see it.
 */
export const MAPPINGS_AS_STORED = Symbol('mappings as stored');

export interface HogFunctionRecord {
  readonly __typename: 'HogFunction';
  readonly [MAPPINGS_AS_STORED]?: unknown;
  /** The project as addressed in the path the function was read through. */
  projectId: string;
  uuid: string;
  type: string;
  name: string | null;
  description: string | null;
  enabled: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  createdBy: ActivityUserRecord | null;
  hog: string | null;
  inputsSchema: unknown;
  /** As answered, then redacted again: every input the schema marks secret reads {"secret": true}. */
  inputs: unknown;
  filters: unknown;
  masking: unknown;
  mappings: unknown;
  iconUrl: string | null;
  template: HogFunctionTemplateRecord | null;
  status: { state: number; tokens: number | null } | null;
  executionOrder: number | null;
  version: number | null;
  /** What PostHog has staged for review (`draft`, `draft_updated_at`); null when nothing is. */
  draft: HogFunctionDraftRecord | null;
}

export interface HogFunctionLogRecord {
  timestamp: string;
  level: string;
  message: string;
  instanceId: string | null;
}

/** A batch export as PostHog's BatchExportSerializer answers it (secret config fields redacted). */
export interface BatchExportRecord {
  readonly __typename: 'BatchExport';
  /** The project as addressed in the path the export was read through. */
  projectId: string;
  uuid: string;
  teamId: number | null;
  name: string | null;
  model: string | null;
  destinationType: string;
  destinationConfig: unknown;
  /** The integration the destination uses (`destination.integration`), for writes that need it again. */
  integrationId: number | null;
  interval: string;
  paused: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  lastPausedAt: string | null;
  startAt: string | null;
  endAt: string | null;
  timezone: string | null;
  offsetDay: number | null;
  offsetHour: number | null;
  hogqlQuery: string | null;
  filters: unknown;
  latestRuns: BatchExportRunRecord[];
}

/** A run of a batch export (BatchExportRunSerializer, `__all__`). */
export interface BatchExportRunRecord {
  readonly __typename: 'BatchExportRun';
  projectId: string;
  exportUuid: string;
  uuid: string;
  status: string;
  recordsCompleted: number | null;
  recordsFailed: number | null;
  recordsTotalCount: number | null;
  bytesExported: number | null;
  latestError: string | null;
  dataIntervalStart: string | null;
  dataIntervalEnd: string | null;
  createdAt: string | null;
  finishedAt: string | null;
  updatedAt: string | null;
  /** The backfill the run belongs to, when one started it. */
  backfillUuid: string | null;
}

/** A backfill of a batch export (BatchExportBackfillSerializer, `__all__` and `progress`). */
export interface BatchExportBackfillRecord {
  readonly __typename: 'BatchExportBackfill';
  projectId: string;
  exportUuid: string;
  uuid: string;
  status: string;
  startAt: string | null;
  endAt: string | null;
  createdAt: string | null;
  finishedAt: string | null;
  totalRecordsCount: number | null;
  progress: { totalRuns: number | null; finishedRuns: number | null; progress: number | null } | null;
}
