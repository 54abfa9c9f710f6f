// A refused choice says what the choices are. graphql-js names the enum a value is not in and at
// most guesses one ("Did you mean …?"); PostHog says only `"x" is not a valid choice.`. Where the
// gateway knows the choices (an enum of its schema; a hog function's `type`, a batch export's
// interval, model and destination type: open strings in the schema, since PostHog adds kinds) the
// message lists them.
import { type GraphQLSchema, isEnumType } from 'graphql';

/**
 * HogFunctionType's choices a create may take (products/cdp/backend/api/hog_function.py): PostHog
 * refuses `legacy_destination` and `warehouse_source_webhook` to this API, and may add kinds.
 */
export const HOG_FUNCTION_CREATE_TYPES = [
  'destination',
  'site_destination',
  'internal_destination',
  'source_webhook',
  'site_app',
  'transformation',
  'transformation_log',
] as const;

/** BatchExport's choices (posthog/batch_exports/models.py), as the fields PostHog names them. */
const BATCH_EXPORT_CHOICES = {
  interval: ['hour', 'day', 'week', 'every 5 minutes', 'every 15 minutes'],
  model: ['events', 'persons', 'sessions', 'hogql'],
  destination__type: [
    'S3',
    'AwsS3',
    'S3Compatible',
    'Snowflake',
    'Postgres',
    'Redshift',
    'BigQuery',
    'Databricks',
    'AzureBlob',
    'Workflows',
    'HTTP',
    'NoOp',
    'FileDownload',
  ],
} as const;

/** Upstream `invalid_choice` refusals the gateway knows the choices of: by mutation, then field. */
const UPSTREAM_CHOICES: Record<string, Record<string, readonly string[]>> = {
  createHogFunction: { type: HOG_FUNCTION_CREATE_TYPES },
  createBatchExport: BATCH_EXPORT_CHOICES,
  updateBatchExport: BATCH_EXPORT_CHOICES,
};

/** The choices to add to an upstream refusal of a choice, or null. */
export function upstreamChoices(
  path: readonly (string | number)[] | undefined,
  extensions: Record<string, unknown>,
): readonly string[] | null {
  const upstream = extensions.upstream as { code?: unknown } | undefined;
  if (upstream?.code !== 'invalid_choice' || typeof extensions.field !== 'string') return null;
  const mutation = typeof path?.[0] === 'string' ? path[0] : '';
  return UPSTREAM_CHOICES[mutation]?.[extensions.field] ?? null;
}

/** graphql-js's ways of saying a value is not of an enum: in a document, in a variable. */
const NOT_IN_ENUM = [
  /Value "[^"]*" does not exist in "(\w+)" enum\.(?: Did you mean [^?]*\?)?/,
  /Expected type "?(\w+)"?\./,
];

/** graphql-js's "not in enum" message with the enum's values listed, or null when it is not one. */
export function withEnumChoices(message: string, schema: GraphQLSchema): string | null {
  const match = NOT_IN_ENUM.map((pattern) => pattern.exec(message)).find((m) => m !== null);
  const type = match ? schema.getType(match[1]!) : null;
  if (!match || !isEnumType(type)) return null;
  const values = type.getValues().map((value) => value.name);
  return message.replace(match[0], `${match[0]} Choose one of: ${values.join(', ')}.`);
}

export const listChoices = (message: string, choices: readonly string[]) =>
  `${message} Choose one of: ${choices.join(', ')}.`;
