// The writable fields of a destination config, validated as DRF's serializer fields do it, in
// the serializer's field order (the first failing field is the one the error names).
import { serverError, validationError } from '../http/api-error.ts';
import type { ParsedBody } from '../http/body.ts';
import { type Dialect, isPosthog } from '../dialect.ts';
import type { DestinationConfig } from '../model.ts';
import type { Store } from '../store.ts';

export type WritableFields = Partial<
  Pick<
    DestinationConfig,
    'plugin' | 'enabled' | 'order' | 'name' | 'description' | 'deleted' | 'filters' | 'config'
  >
>;

const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

const nullError = (attr: string) => validationError(attr, 'null', 'This field may not be null.');
const requiredError = (attr: string) => validationError(attr, 'required', 'This field is required.');

function toInteger(attr: string, value: unknown): number {
  if (value === null) throw nullError(attr);
  const text = typeof value === 'string' ? value.trim() : value;
  let n: number;
  if (typeof text === 'number') n = text;
  else if (typeof text === 'string' && /^[+-]?\d+(\.0*)?$/.test(text)) n = Number(text);
  else throw validationError(attr, 'invalid_input', 'A valid integer is required.');
  if (!Number.isInteger(n)) throw validationError(attr, 'invalid_input', 'A valid integer is required.');
  if (n > INT32_MAX) {
    throw validationError(attr, 'max_value', `Ensure this value is less than or equal to ${INT32_MAX}.`);
  }
  if (n < INT32_MIN) {
    throw validationError(attr, 'min_value', `Ensure this value is greater than or equal to ${INT32_MIN}.`);
  }
  return n;
}

const TRUE_VALUES = new Set([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
]);
const FALSE_VALUES = new Set([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
]);

function toBoolean(attr: string, value: unknown): boolean {
  if (value === null) throw nullError(attr);
  if (TRUE_VALUES.has(value as string)) return true;
  if (FALSE_VALUES.has(value as string)) return false;
  throw validationError(attr, 'invalid_input', 'Must be a valid boolean.');
}

function toText(attr: string, value: unknown, maxLength: number): string | null {
  if (value === null) return null;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw validationError(attr, 'invalid_input', 'Not a valid string.');
  if (value.length > maxLength) {
    throw validationError(attr, 'max_length', `Ensure this field has no more than ${maxLength} characters.`);
  }
  return value;
}

function toJsonField(attr: string, value: unknown, fromForm: boolean): unknown {
  if (!fromForm) return value;
  try {
    return JSON.parse(String(value));
  } catch {
    throw validationError(attr, 'invalid_input', 'Value must be valid JSON.');
  }
}

/**
 * Reads the writable fields of a create (`partial` false) or update body. `config` is taken
 * only from a form field holding JSON, as PostHog does; a JSON `config` is silently dropped, and
 * the spec dialect treats it as read-only.
 */
export function readWritableFields(
  store: Store,
  dialect: Dialect,
  body: ParsedBody,
  partial: boolean,
): WritableFields {
  const data = body.data;
  const fromForm = body.kind === 'form';
  const has = (k: string) => Object.hasOwn(data, k);
  const fields: WritableFields = {};
  if (has('plugin')) {
    const raw = data.plugin;
    if (raw === null) throw nullError('plugin');
    if (typeof raw === 'boolean' || typeof raw === 'object') {
      throw validationError(
        'plugin',
        'incorrect_type',
        `Incorrect type. Expected pk value, received ${typeName(raw)}.`,
      );
    }
    const id = /^\d+$/.test(String(raw).trim()) ? Number(String(raw).trim()) : NaN;
    if (!store.plugins.has(id)) {
      throw validationError(
        'plugin',
        'does_not_exist',
        `Invalid pk "${String(raw)}" - object does not exist.`,
      );
    }
    fields.plugin = id;
  } else if (!partial) throw requiredError('plugin');
  if (has('enabled')) fields.enabled = toBoolean('enabled', data.enabled);
  if (has('order')) fields.order = toInteger('order', data.order);
  else if (!partial) throw requiredError('order');
  if (has('name')) fields.name = toText('name', data.name, 400);
  if (has('description')) fields.description = toText('description', data.description, 1000);
  if (has('deleted')) fields.deleted = toBoolean('deleted', data.deleted);
  if (has('filters')) fields.filters = toJsonField('filters', data.filters, fromForm);
  if (isPosthog(dialect) && fromForm && has('config')) {
    // PostHog json.loads() the form field unguarded: bad JSON is a 500 there.
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data.config));
    } catch {
      throw serverError();
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw serverError();
    fields.config = parsed as Record<string, unknown>;
  }
  return fields;
}

/** On update the whole config object is replaced; a secret left out keeps its stored value. */
export function mergeConfig(
  store: Store,
  existing: DestinationConfig,
  incoming: Record<string, unknown>,
): Record<string, unknown> {
  const plugin = store.plugins.get(existing.plugin);
  const merged = { ...incoming };
  for (const field of plugin?.config_schema ?? []) {
    if (field.secret && !Object.hasOwn(incoming, field.key) && Object.hasOwn(existing.config, field.key)) {
      merged[field.key] = existing.config[field.key];
    }
  }
  return merged;
}

function typeName(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}
