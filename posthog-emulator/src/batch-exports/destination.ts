// A write's `destination`, as PostHog reads it: BatchExportDestinationSerializer's fields and its
// validate() (products/batch_exports/backend/presentation/views/batch_export/destinations.py at
// 475d263, its config keys in batch-export-config-keys.ts), then
// BatchExportSerializer.validate_destination (exports.py at 0551d5e): the type never changes (the
// legacy `S3` is no choice since migration 0010_alter_batchexportdestination_type@88c5eef), each
// integration-backed type needs its Integration (of the right kind), S3-family inputs may not be
// blank and their file format and compression must go together.
import { permissionDenied, serverError } from '../http/api-error.ts';
import { configProblem } from './config-keys.ts';
import type { WriteContext } from './fields.ts';
import type { BatchExportDestination } from './model.ts';
import { WRITABLE_TYPES } from './model.ts';
import { Invalid } from './readers.ts';
import type { ErrorTree, FieldError } from '../hog-functions/errors.ts';
import { fieldError, listed, pyType } from '../hog-functions/errors.ts';

type Read = (BatchExportDestination & { integrationGiven: boolean }) | Invalid;

const messages = (detail: string, code = 'invalid') => listed(fieldError(detail, code));
const err = (detail: string, code = 'invalid') => new Invalid(messages(detail, code));
const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Integration kind each integration-backed type links, and its message when missing or wrong. */
const INTEGRATED: Record<string, { kind: string; label: string; wrongKind: string; onCreateOnly?: true }> = {
  Snowflake: { kind: 'snowflake', label: 'Snowflake', wrongKind: '' },
  Databricks: {
    kind: 'databricks',
    label: 'Databricks',
    wrongKind: 'Integration is not a Databricks integration.',
  },
  Postgres: {
    kind: 'postgresql',
    label: 'Postgres',
    wrongKind: 'Integration is not a PostgreSQL integration.',
    onCreateOnly: true,
  },
  BigQuery: {
    kind: 'google-cloud-service-account',
    label: 'BigQuery',
    wrongKind: 'Integration is not a Google Cloud service account integration.',
  },
  AzureBlob: {
    kind: 'azure-blob',
    label: 'Azure Blob',
    wrongKind: 'Integration is not an Azure Blob integration.',
  },
  Redshift: {
    kind: 'aws-redshift',
    label: 'Redshift',
    wrongKind: 'Integration is not a Redshift integration.',
    onCreateOnly: true,
  },
};

const S3_FAMILY = ['AwsS3', 'S3Compatible'];
const S3_KIND: Record<string, string> = { AwsS3: 'aws-s3', S3Compatible: 's3-compatible' };
/** S3_SUPPORTED_COMPRESSIONS, as PostHog's tests print it. */
const S3_COMPRESSIONS: Record<string, string[]> = {
  Parquet: ['zstd', 'lz4', 'snappy', 'gzip', 'brotli'],
  JSONLines: ['gzip', 'brotli'],
};

/** TeamScopedPrimaryKeyRelatedField: an Integration of this project, by id. */
function integrationField(ctx: WriteContext, value: unknown): number | null | FieldError[] {
  const err = messages;
  if (value === null) return null;
  const type =
    typeof value === 'boolean'
      ? 'bool'
      : typeof value === 'string'
        ? 'str'
        : Array.isArray(value)
          ? 'list'
          : 'dict';
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : null;
  if (id === null || !Number.isInteger(id))
    return err(`Incorrect type. Expected pk value, received ${type}.`, 'incorrect_type');
  const found = ctx.store.batchExports.integrations.get(id);
  if (!found || found.projectId !== ctx.projectId)
    return err(`Invalid pk "${id}" - object does not exist.`, 'does_not_exist');
  return id;
}

/** The nested serializer's fields and validate(), then the parent's validate_destination. */
export function readDestination(ctx: WriteContext, value: unknown): Read {
  if (!isDict(value))
    return new Invalid({
      non_field_errors: messages(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`),
    });
  const errors: ErrorTree = {};
  let type: string | undefined;
  if (value.type === undefined) {
    if (!ctx.partial) errors.type = messages('This field is required.', 'required');
  } else if (typeof value.type === 'string' && (WRITABLE_TYPES as readonly string[]).includes(value.type))
    type = value.type;
  else errors.type = messages(`"${String(value.type)}" is not a valid choice.`, 'invalid_choice');
  if (value.config === undefined && !ctx.partial)
    errors.config = messages('This field is required.', 'required');
  let integration: number | null | undefined;
  for (const name of ['integration', 'integration_id'] as const) {
    if (value[name] === undefined) continue;
    const outcome = integrationField(ctx, value[name]);
    if (Array.isArray(outcome)) errors[name] = outcome;
    else integration = outcome;
  }
  if (Object.keys(errors).length > 0) return new Invalid(errors);
  // validate() reads attrs["type"] and attrs["config"]: a partial destination without them is a KeyError.
  if (type === undefined || !isDict(value.config)) throw serverError();
  const config = { ...value.config };
  const problem = configProblem(type, config, ctx.partial);
  if (problem !== null) return new Invalid({ non_field_errors: messages(problem) });
  const rule = validateDestination(ctx, type, config, integration);
  if (rule !== null) return err(rule);
  return { type, config, integration: integration ?? null, integrationGiven: integration !== undefined };
}

/** BatchExportSerializer.validate_destination: a message for the first rule broken, or null. */
function validateDestination(
  ctx: WriteContext,
  type: string,
  config: Record<string, unknown>,
  given: number | null | undefined,
): string | null {
  const { instance } = ctx;
  if (instance !== null && type !== instance.destination.type)
    return `Cannot change destination type from '${instance.destination.type}' to '${type}'. Delete this batch export and create a new one with the new destination type.`;
  const merged = recursiveMerge(instance?.destination.config ?? {}, config);
  if (type === 'HTTP') {
    const url = merged.url;
    if (url && url !== 'https://us.i.posthog.com/batch/' && url !== 'https://eu.i.posthog.com/batch/')
      return `Invalid destination URL: ${String(url)}`;
  }
  const kindOf = (id: number | null | undefined) =>
    id == null ? null : ctx.store.batchExports.integrations.get(id)!.kind;
  // Snowflake and the S3 family keep the stored integration when a write leaves it out.
  const kept = given === undefined && instance !== null ? instance.destination.integration : (given ?? null);
  if (S3_FAMILY.includes(type)) {
    if (kept === null) return `Integration is required for ${type} batch exports`;
    const empty = ['bucket_name', 'region', 'prefix'].filter(
      (k) => typeof config[k] === 'string' && (config[k] as string).trim() === '',
    );
    if (empty.length > 0) return `The following inputs are empty: [${empty.map((k) => `'${k}'`).join(', ')}]`;
    if (kindOf(kept) !== S3_KIND[type])
      return `Integration provided is not an AWS S3 integration (got kind='${kindOf(kept)}')`;
    const format = String(merged.file_format ?? 'JSONLines');
    const formats = Object.keys(S3_COMPRESSIONS);
    if (!formats.includes(format))
      return `File format ${format} is not supported. Supported file formats are [${formats.map((f) => `'${f}'`).join(', ')}]`;
    const compression = merged.compression;
    if (compression && !S3_COMPRESSIONS[format]!.includes(String(compression)))
      return `Compression ${String(compression)} is not supported for file format ${format}. Supported compressions are [${S3_COMPRESSIONS[format]!.map((c) => `'${c}'`).join(', ')}]`;
  }
  const rule = INTEGRATED[type];
  if (rule) {
    const integration = type === 'Snowflake' ? kept : (given ?? null);
    if (type === 'Redshift' && instance?.destination.integration != null && integration === null)
      return 'Cannot remove the integration from a Redshift batch export that uses one. Re-send its `integration` to keep it (or a different one to swap).';
    if (integration === null && (!rule.onCreateOnly || instance === null))
      return `Integration is required for ${rule.label} batch exports`;
    if (integration !== null && kindOf(integration) !== rule.kind && rule.wrongKind) return rule.wrongKind;
    if (type === 'Redshift' && integration !== null && !merged.host)
      return "A 'host' is required when using an AWS Redshift integration: set it to the cluster or workgroup endpoint.";
  }
  if (type === 'Workflows' && !ctx.store.batchExports.settings.workflows)
    throw permissionDenied('Backfilling Workflows is not enabled for this team.');
  return null;
}

/** exports.py recursive_dict_merge: dicts merge when both sides are dicts; anything else is replaced. */
export function recursiveMerge(
  old: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...old, ...next };
  for (const [key, value] of Object.entries(merged)) {
    if (!isDict(value)) continue;
    merged[key] = recursiveMerge(isDict(old[key]) ? old[key] : {}, isDict(next[key]) ? next[key] : {});
  }
  return merged;
}
