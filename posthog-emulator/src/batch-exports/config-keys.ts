// BatchExportDestinationSerializer.validate (products/batch_exports/backend/presentation/views/
// batch_export/destinations.py@475d263): a destination's `config` is read against the workflow
// inputs dataclass of its type (DESTINATION_WORKFLOWS in products/batch_exports/backend/
// service.py@02b1f51). A key neither that dataclass nor BaseBatchExportInputs declares is refused;
// a field without a default must be given (but on PATCH); a value of a plainly typed field must be
// of that type, a text boolean or integer being converted in place.
import { pyType } from '../hog-functions/errors.ts';

/** A destination field: its Python type when a plain `type` (else unchecked), and whether it has a default. */
type Field = readonly [name: string, type: 'str' | 'int' | 'bool' | null, required?: true];

/** BaseBatchExportInputs' fields: accepted in any config, never checked. */
const BASE_FIELDS = new Set([
  'batch_export_id',
  'team_id',
  'interval',
  'timezone',
  'data_interval_end',
  'exclude_events',
  'include_events',
  'is_backfill',
  'is_earliest_backfill',
  'backfill_details',
  'batch_export_model',
  'batch_export_schema',
  'integration_id',
]);

const S3_FAMILY: Field[] = [
  ['bucket_name', 'str', true],
  ['region', 'str', true],
  ['prefix', 'str', true],
  ['compression', null],
  ['file_format', 'str'],
  ['max_file_size_mb', null],
  ['legacy_parquet_extension', 'bool'],
];

/** Each type's own fields, in dataclass order. */
const WORKFLOW_INPUTS: Record<string, readonly Field[]> = {
  AwsS3: [...S3_FAMILY, ['encryption', null], ['kms_key_id', null]],
  S3Compatible: [...S3_FAMILY, ['use_virtual_style_addressing', 'bool']],
  AzureBlob: [
    ['container_name', 'str', true],
    ['prefix', 'str'],
    ['compression', null],
    ['file_format', 'str'],
    ['max_file_size_mb', null],
    ['legacy_parquet_extension', 'bool'],
  ],
  BigQuery: [
    ['dataset_id', 'str', true],
    ['table_id', 'str'],
    ['project_id', null],
    ['private_key', null],
    ['private_key_id', null],
    ['token_uri', null],
    ['client_email', null],
    ['use_json_type', 'bool'],
  ],
  Databricks: [
    ['http_path', 'str', true],
    ['catalog', 'str', true],
    ['schema', 'str', true],
    ['table_name', 'str', true],
    ['use_variant_type', 'bool'],
    ['use_automatic_schema_evolution', 'bool'],
  ],
  FileDownload: [
    ['data_interval_start', null],
    ['batch_export_run_id', null],
    ['file_format', 'str'],
    ['max_file_size_mb', null],
    ['compression', null],
    ['expires_in_seconds', 'int'],
    ['main_activity_timeout_seconds', null],
    ['stage_activity_timeout_seconds', null],
  ],
  HTTP: [
    ['url', 'str', true],
    ['token', 'str', true],
  ],
  NoOp: [['arg', 'str']],
  Postgres: [
    ['database', 'str', true],
    ['schema', 'str'],
    ['table_name', 'str'],
    ['user', null],
    ['host', null],
    ['port', null],
    ['password', null],
    ['has_self_signed_cert', 'bool'],
  ],
  Redshift: [
    ['database', 'str', true],
    ['user', null],
    ['password', null],
    ['host', null],
    ['schema', 'str'],
    ['table_name', 'str'],
    ['port', 'int'],
    ['properties_data_type', 'str'],
    ['mode', null],
    ['copy_inputs', null],
  ],
  Snowflake: [
    ['database', 'str', true],
    ['warehouse', 'str', true],
    ['schema', 'str', true],
    ['table_name', 'str'],
    ['role', null],
  ],
  Workflows: [['hog_function_id', 'str', true]],
};

export const hasWorkflowInputs = (type: string) => WORKFLOW_INPUTS[type] !== undefined;

/** posthog/utils.py str_to_bool: only these texts read as true; any other reads as false. */
const strToBool = (text: string) => ['y', 'yes', 't', 'true', 'on', '1'].includes(text.toLowerCase());

/** isinstance, then try_convert_to_type: the value to store, or undefined when it does not convert. */
function converted(value: unknown, type: 'str' | 'int' | 'bool'): unknown {
  const actual = pyType(value);
  // isinstance(True, int) holds in Python.
  if (actual === type || (type === 'int' && actual === 'bool')) return value;
  if (actual !== 'str') return undefined;
  if (type === 'bool') return strToBool(value as string);
  if (type === 'int' && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value as string))
    return Number((value as string).replaceAll('_', ''));
  return undefined;
}

/**
 * validate()'s three checks on `config` (converted in place): the first message it raises, or
 * null. `type` must have workflow inputs (a type without any is a KeyError in PostHog).
 */
export function configProblem(
  type: string,
  config: Record<string, unknown>,
  isPatch: boolean,
): string | null {
  const fields = WORKFLOW_INPUTS[type]!;
  const known = new Set(fields.map(([name]) => name));
  const extra = Object.keys(config)
    .filter((key) => !known.has(key) && !BASE_FIELDS.has(key))
    .sort();
  if (extra.length > 0) return `Configuration has unknown field/s: ${extra.map((k) => `'${k}'`).join(', ')}`;
  for (const [name, type, required] of fields) {
    if (!(name in config)) {
      if (required && !isPatch) return `Configuration missing required field: '${name}'`;
      continue;
    }
    if (type === null) continue;
    const value = converted(config[name], type);
    if (value === undefined)
      return `Configuration has invalid type: got '${pyType(config[name])}', expected '${type}'`;
    config[name] = value;
  }
  return null;
}
