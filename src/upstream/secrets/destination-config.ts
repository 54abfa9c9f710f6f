// A batch export destination's config with its secrets redacted. PostHog strips the destination
// type's secret fields from `config` at any depth on read
// (BatchExportDestination.secret_fields, products/batch_exports/backend/models/batch_export.py
// @05fe462; BatchExportDestinationSerializer.to_representation's remove_secret_fields_recursive,
// products/batch_exports/backend/presentation/views/batch_export/destinations.py@475d263). A
// Redshift export in COPY mode nests inline AWS credentials under `copy_inputs.authorization` and
// `copy_inputs.bucket_credentials` (same file). The gateway redacts again, at any depth: a field
// any destination type marks secret, or one named like a credential, reads {"secret": true}.
import { holdsValue, isObject, namesCredential, SECRET_INPUT } from './names.ts';

/** BatchExportDestination.secret_fields, by destination type (PostHog's sets, as of 05fe462). */
export const SECRET_FIELDS: Record<string, readonly string[]> = {
  S3: ['aws_access_key_id', 'aws_secret_access_key'],
  AwsS3: ['aws_access_key_id', 'aws_secret_access_key'],
  S3Compatible: ['aws_access_key_id', 'aws_secret_access_key'],
  Snowflake: ['user', 'password', 'private_key', 'private_key_passphrase'],
  Postgres: ['user', 'password'],
  Redshift: ['user', 'password', 'aws_access_key_id', 'aws_secret_access_key'],
  BigQuery: ['private_key', 'private_key_id', 'client_email', 'token_uri'],
  Databricks: [],
  AzureBlob: [],
  HTTP: ['token'],
  NoOp: [],
  Workflows: [],
  FileDownload: [],
};

/**
 * Every name some type marks secret, plus the credentials of types PostHog keeps in an Integration
 * (an old row may still hold them inline): a destination answered under one type may carry
 * another's fields, or its type may be one the gateway does not know.
 */
const SECRET_ANYWHERE = new Set([
  ...Object.values(SECRET_FIELDS).flat(),
  'client_id',
  'client_secret',
  'connection_string',
]);

const isSecretName = (name: string) => SECRET_ANYWHERE.has(name) || namesCredential(name);

/** A value with every secret member, at any depth, read as {"secret": true}. */
export function redactedSecretsDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactedSecretsDeep);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = isSecretName(key) && holdsValue(member) ? SECRET_INPUT : redactedSecretsDeep(member);
  }
  return out;
}

/** The destination's config with every secret field, at any depth, read as {"secret": true}. */
export function redactedDestinationConfig(config: unknown): unknown {
  if (!isObject(config)) return config ?? null;
  return redactedSecretsDeep(config);
}
