// A hog function's inputs as PostHog validates and stores them (posthog/cdp/validation.py,
// InputsSerializer.run_child_validation and InputsItemSerializer.validate, newest stored version):
// the schema is walked, not the given inputs; a secret sent as {"secret": true} (or the mask
// "********", or left out) takes the stored value; each value gets its bytecode (or, for the site_*
// types, transpiled TypeScript) and an `order` from the inputs it references.
import type { HogInput, HogInputSchema } from '../model.ts';

export const MASKED_SECRET_VALUE = '********';
/** The types whose source is TypeScript (hog_function.py, TYPES_WITH_JAVASCRIPT_SOURCE). */
export const TYPES_WITH_JAVASCRIPT_SOURCE = ['site_destination', 'site_app'];
/** The input types whose value is compiled as a template. */
const TEMPLATED_TYPES = [
  'string',
  'boolean',
  'dictionary',
  'json',
  'email',
  'native_email',
  'posthog_ticket_tags',
  'customer_analytics_account_properties',
  'customer_analytics_account_relationships',
];

/** Per input key, DRF's error detail: a message, or a nested field map. */
export type InputErrors = Record<string, string | Record<string, unknown>>;

export type InputsOutcome = { inputs: Record<string, HogInput> } | { errors: InputErrors };

/** Python's truthiness, which the serializer's `if not value` tests. */
export const truthy = (v: unknown) =>
  !(v === undefined || v === null || v === false || v === 0 || v === '') &&
  !(Array.isArray(v) && v.length === 0) &&
  !(isDict(v) && Object.keys(v).length === 0);

export const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** generate_template_bytecode: each string leaf compiled; exact for strings without `{...}`. */
export function templateBytecode(value: unknown): unknown {
  if (typeof value === 'string') return ['_H', 1, 32, value];
  if (Array.isArray(value)) return value.map(templateBytecode);
  if (isDict(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, templateBytecode(v)]));
  return value;
}

/** transpile_template_code, as far as a literal needs it (Python's json.dumps separators). */
function transpiledCode(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(transpiledCode).join(', ')}]`;
  if (isDict(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${transpiledCode(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value ?? null);
}

/** The inputs a template value reads (`{inputs.x}`): what `order` is sorted by. */
function inputDeps(value: unknown): string[] {
  const text = JSON.stringify(value ?? null);
  return [...text.matchAll(/\{[^{}]*?\binputs\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

/** InputsItemSerializer.validate: the type check, then the compiled form. */
function validateItem(
  schema: HogInputSchema,
  given: Record<string, unknown>,
  functionType: string,
): HogInput | string | null {
  const value = given.value;
  if (schema.required && (value === undefined || value === null || value === ''))
    return 'This field is required.';
  if (!('value' in given)) return null;
  const item = { value } as HogInput;
  if (typeof given.templating === 'string') item.templating = given.templating;
  if (!truthy(value)) return item;
  const wrong = typeMismatch(schema, value, given.templating);
  if (wrong) return wrong;
  if ((schema.templating ?? true) !== false && given.templating !== 'liquid') {
    if (TEMPLATED_TYPES.includes(schema.type)) {
      if (TYPES_WITH_JAVASCRIPT_SOURCE.includes(functionType))
        item.transpiled = { lang: 'ts', code: transpiledCode(value), stl: [] };
      else item.bytecode = templateBytecode(value);
    }
  }
  return item;
}

function typeMismatch(schema: HogInputSchema, value: unknown, templating: unknown): string | null {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string' ? null : 'Value must be a string.';
    case 'number':
      return typeof value === 'number' ? null : 'Value must be a number.';
    case 'boolean':
      if ((schema.templating ?? true) === false)
        return typeof value === 'boolean' ? null : 'Value must be a boolean.';
      if (typeof value !== 'boolean' && typeof value !== 'string')
        return 'Value must be a boolean or a template string.';
      return typeof value === 'string' && templating === 'liquid'
        ? 'Liquid templating is not supported for boolean fields. Use Hog templating instead.'
        : null;
    case 'dictionary':
      return isDict(value) ? null : 'Value must be a dictionary.';
    case 'integration':
      return Number.isInteger(value) ? null : 'Value must be an Integration ID.';
    default:
      return null;
  }
}

/** The value to validate for one schema entry, a stored secret recovered; a message when none is. */
function givenFor(
  schema: HogInputSchema,
  sent: Record<string, unknown>,
  stored: Record<string, HogInput>,
): Record<string, unknown> | string {
  const raw = sent[schema.key];
  let value: Record<string, unknown> = truthy(raw) ? (raw as Record<string, unknown>) : {};
  if (schema.secret) {
    const masked =
      isDict(raw) && truthy(raw.secret) && (!('value' in raw) || raw.value === MASKED_SECRET_VALUE);
    if (masked || Object.keys(value).length === 0) {
      const existing = stored[schema.key];
      if (existing && truthy(existing)) value = { value: existing.value };
      else if (masked) return 'No value is saved for this secret input. Enter the value again.';
    }
  }
  if (Object.keys(value).length === 0 && schema.required && schema.default != null)
    value = { value: schema.default };
  if (!isDict(value)) return 'Invalid data. Expected a dictionary.';
  if ('templating' in schema) {
    if (schema.templating === true) value = { ...value, templating: 'hog' };
    else if (typeof schema.templating === 'string') value = { ...value, templating: schema.templating };
  }
  return value;
}

/**
 * Validates `sent` against `schema`; `stored` holds the inputs saved so far (the secret ones are
 * what {"secret": true} recovers). Errors are keyed by input, in schema order.
 */
export function validateInputs(
  schema: HogInputSchema[],
  sent: unknown,
  stored: Record<string, HogInput>,
  functionType: string,
): InputsOutcome {
  const given = isDict(sent) ? sent : {};
  const result: Record<string, HogInput> = {};
  const errors: InputErrors = {};
  for (const entry of schema) {
    const value = givenFor(entry, given, stored);
    if (typeof value === 'string') {
      errors[entry.key] = value;
      continue;
    }
    const item = validateItem(entry, value, functionType);
    if (typeof item === 'string') errors[entry.key] = item;
    else if (item && entry.secret && item.value === MASKED_SECRET_VALUE)
      errors[entry.key] = 'This secret input was not updated correctly. Enter the value again.';
    else if (item) result[entry.key] = item;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { inputs: ordered(result) };
}

/** validation.py, topological_sort: an input comes after the inputs its template reads. */
function ordered(result: Record<string, HogInput>): Record<string, HogInput> {
  const keys = Object.keys(result);
  const deps = new Map(keys.map((k) => [k, inputDeps(result[k]!.value).filter((d) => d in result)]));
  const inDegree = new Map(keys.map((k) => [k, deps.get(k)!.length]));
  const queue = keys.filter((k) => inDegree.get(k) === 0);
  const sorted: string[] = [];
  while (queue.length > 0) {
    const current = queue.shift()!;
    sorted.push(current);
    for (const k of keys) {
      if (!deps.get(k)!.includes(current)) continue;
      inDegree.set(k, inDegree.get(k)! - 1);
      if (inDegree.get(k) === 0) queue.push(k);
    }
  }
  const final = sorted.length === keys.length ? sorted : keys;
  return Object.fromEntries(
    final.map((k, order) => {
      const { order: _, ...input } = result[k]!;
      return [k, { ...input, order }];
    }),
  );
}

/** What an input reads back as (InputsItemSerializer.to_representation drops the nulls). */
export function inputRepresentation(input: HogInput): Record<string, unknown> {
  const { value, templating, bytecode, transpiled, order } = input;
  return Object.fromEntries(
    Object.entries({ value, templating, bytecode, transpiled, order }).filter(([, v]) => v != null),
  );
}
