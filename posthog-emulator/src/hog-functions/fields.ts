// The field-by-field half of HogFunctionSerializer (products/cdp/backend/api/hog_function.py at
// 0019077, `to_internal_value` and the declared fields): what a write body says once each field
// is read, and every field error DRF collects, keyed as DRF keys them.
import { type ErrorTree, type FieldError, fieldError, listed, pyType } from './errors.ts';
import { type InputErrors, isDict, templateBytecode, validateInputs } from './inputs.ts';
import type { HogInput, HogInputSchema } from '../model.ts';

/** HogFunctionType's choices (model@cf2dead), `legacy_destination` among them. */
export const HOG_FUNCTION_TYPES = [
  'destination',
  'site_destination',
  'internal_destination',
  'source_webhook',
  'warehouse_source_webhook',
  'site_app',
  'transformation',
  'transformation_log',
  'legacy_destination',
];
const SCHEMA_TYPES = [
  'string',
  'number',
  'boolean',
  'dictionary',
  'choice',
  'json',
  'integration',
  'integration_multi',
  'integration_field',
  'email',
  'native_email',
];

/** What one write says, each field as the serializer reads it (absent: not sent). */
export interface HogFields {
  type: string;
  name?: string | null;
  description?: string;
  enabled?: boolean;
  deleted?: boolean;
  hog?: string;
  inputsSchema: HogInputSchema[];
  inputs: Record<string, HogInput>;
  filters: Record<string, unknown>;
  masking?: unknown;
  mappings?: unknown[] | null;
  iconUrl?: string | null;
  executionOrder?: number | null;
}

const TRUE = new Set([true, 'true', 'True', 'TRUE', 't', 'T', 'yes', 'y', 'on', '1', 1]);
const FALSE = new Set([false, 'false', 'False', 'FALSE', 'f', 'F', 'no', 'n', 'off', '0', 0]);

export function readBoolean(value: unknown): boolean | FieldError {
  if (value === null) return fieldError('This field may not be null.', 'null');
  if (TRUE.has(value as string)) return true;
  if (FALSE.has(value as string)) return false;
  return fieldError('Must be a valid boolean.');
}

export function readText(value: unknown, max: number | null, allowNull: boolean): string | null | FieldError {
  if (value === null) return allowNull ? null : fieldError('This field may not be null.', 'null');
  if (typeof value !== 'string' && typeof value !== 'number') return fieldError('Not a valid string.');
  const text = String(value);
  if (max !== null && text.length > max)
    return fieldError(`Ensure this field has no more than ${max} characters.`, 'max_length');
  return text;
}

export function readOrder(value: unknown): number | null | FieldError {
  if (value === null) return null;
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) return fieldError('A valid integer is required.');
  if (n < 0) return fieldError('Ensure this value is greater than or equal to 0.', 'min_value');
  if (n > 32767) return fieldError('Ensure this value is less than or equal to 32767.', 'max_value');
  return n;
}

/** InputsSchemaItemSerializer over a list: the items with their defaults, or errors by index. */
export function readSchema(value: unknown): HogInputSchema[] | FieldError[] | ErrorTree {
  if (!Array.isArray(value))
    return listed(fieldError(`Expected a list of items but got type "${pyType(value)}".`, 'not_a_list'));
  const errors: ErrorTree = {};
  const items = value.map((item, index) => {
    if (!isDict(item)) {
      errors[index] = {
        non_field_errors: listed(fieldError(`Invalid data. Expected a dictionary, but got ${pyType(item)}.`)),
      };
      return null;
    }
    const itemErrors: ErrorTree = {};
    if (item.type === undefined) itemErrors.type = listed(fieldError('This field is required.', 'required'));
    else if (!SCHEMA_TYPES.includes(String(item.type)))
      itemErrors.type = listed(fieldError(`"${String(item.type)}" is not a valid choice.`, 'invalid_choice'));
    if (item.key === undefined) itemErrors.key = listed(fieldError('This field is required.', 'required'));
    if (Object.keys(itemErrors).length > 0) errors[index] = itemErrors;
    const { type, key, label, choices, required, secret, hidden, ...rest } = item;
    return {
      type,
      key,
      ...(label === undefined ? {} : { label }),
      ...(choices === undefined ? {} : { choices }),
      required: required === true,
      ...(rest.default === undefined ? {} : { default: rest.default }),
      secret: secret === true,
      hidden: hidden === true,
      ...rest,
    } as HogInputSchema;
  });
  return Object.keys(errors).length > 0 ? errors : (items as HogInputSchema[]);
}

const toTree = (errors: InputErrors): ErrorTree =>
  Object.fromEntries(
    Object.entries(errors).map(([k, v]) => [k, typeof v === 'string' ? fieldError(v) : (v as ErrorTree)]),
  );

/** InputsSerializer: `inputs` against the raw `inputs_schema` sent beside it. */
export function readInputs(
  value: unknown,
  rawSchema: unknown,
  stored: Record<string, HogInput>,
  functionType: string,
): Record<string, HogInput> | FieldError[] | ErrorTree {
  if (!isDict(value))
    return listed(
      fieldError(`Expected a dictionary of items but got type "${pyType(value)}".`, 'not_a_dict'),
    );
  if (!Array.isArray(rawSchema)) return listed(fieldError('Missing inputs_schema.'));
  const schema = rawSchema.filter(isDict) as HogInputSchema[];
  const outcome = validateInputs(schema, value, stored, functionType);
  return 'errors' in outcome ? toTree(outcome.errors) : outcome.inputs;
}

/** MappingsSerializer over a list: each mapping's inputs against its own schema. */
export function readMappings(value: unknown, stored: Record<string, HogInput>, functionType: string) {
  if (value === null) return null;
  if (!Array.isArray(value))
    return listed(fieldError(`Expected a list of items but got type "${pyType(value)}".`, 'not_a_list'));
  const errors: ErrorTree = {};
  const mappings = value.map((mapping, index) => {
    if (!isDict(mapping)) return mapping;
    const out: Record<string, unknown> = {};
    if (mapping.name !== undefined) out.name = mapping.name;
    if (mapping.inputs_schema !== undefined) out.inputs_schema = mapping.inputs_schema;
    if (mapping.inputs !== undefined) {
      const inputs = readInputs(mapping.inputs, mapping.inputs_schema, stored, functionType);
      if (Array.isArray(inputs) || !isStoredInputs(inputs)) errors[index] = { inputs: inputs as ErrorTree };
      else out.inputs = inputs;
    }
    if (mapping.filters !== undefined) out.filters = mapping.filters;
    return out;
  });
  return Object.keys(errors).length > 0 ? errors : mappings;
}

const isStoredInputs = (v: Record<string, unknown>): v is Record<string, HogInput> =>
  Object.values(v).every((i) => isDict(i) && typeof (i as { order?: unknown }).order === 'number');

/** HogFunctionMaskingSerializer: ttl 60..86400 and a hash expression, compiled. */
export function readMasking(value: unknown): unknown {
  if (value === null) return null;
  if (!isDict(value))
    return {
      non_field_errors: listed(fieldError(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`)),
    };
  const errors: ErrorTree = {};
  const ttl = readOrder(value.ttl);
  if (value.ttl === undefined) errors.ttl = listed(fieldError('This field is required.', 'required'));
  else if (typeof ttl !== 'number') errors.ttl = listed(fieldError('A valid integer is required.'));
  else if (ttl < 60)
    errors.ttl = listed(fieldError('Ensure this value is greater than or equal to 60.', 'min_value'));
  else if (ttl > 86400)
    errors.ttl = listed(fieldError('Ensure this value is less than or equal to 86400.', 'max_value'));
  if (typeof value.hash !== 'string') errors.hash = listed(fieldError('This field is required.', 'required'));
  if (Object.keys(errors).length > 0) return errors;
  return {
    ttl,
    threshold: value.threshold ?? null,
    hash: value.hash,
    bytecode: templateBytecode(value.hash),
  };
}

/** One field's outcome: its value, or its errors recorded under its name. */
export function take<T>(errors: ErrorTree, name: string, outcome: T | FieldError | FieldError[] | ErrorTree) {
  if (isError(outcome)) {
    errors[name] =
      Array.isArray(outcome) || isFieldError(outcome)
        ? ([] as FieldError[]).concat(outcome as FieldError | FieldError[])
        : (outcome as ErrorTree);
    return undefined;
  }
  return outcome as T;
}

const isFieldError = (v: unknown): v is FieldError => isDict(v) && 'detail' in v && 'code' in v;
const isError = (v: unknown): boolean =>
  isFieldError(v) ||
  (Array.isArray(v) && v.length > 0 && v.every(isFieldError)) ||
  (isDict(v) && Object.values(v).some((x) => isError(x) || (isDict(x) && Object.values(x).some(isError))));
