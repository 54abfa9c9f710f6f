// DRF's field readers as BatchExportSerializer's fields use them (CharField, ChoiceField,
// BooleanField, IntegerField, DateTimeField, ListField of CharField, the timezone ChoiceField): a
// value, or the field's errors as DRF words and codes them.
import { ApiError } from '../http/api-error.ts';
import type { ErrorTree, FieldError } from '../hog-functions/errors.ts';
import { fieldError, listed, pyType } from '../hog-functions/errors.ts';

/** A field's errors, as a reader returns them (DRF raises; here they are a value). */
export class Invalid {
  constructor(readonly errors: FieldError[] | ErrorTree) {}
}

export const err = (detail: string, code = 'invalid') => new Invalid(listed(fieldError(detail, code)));
export const required = () => listed(fieldError('This field is required.', 'required'));
export const notNull = () => err('This field may not be null.', 'null');

export type Outcome<T> = T | Invalid;
export const isErrors = (v: unknown): v is Invalid => v instanceof Invalid;

export function text(value: unknown, allowNull: boolean): Outcome<string | null> {
  if (value === null) return allowNull ? null : notNull();
  if (typeof value !== 'string' && typeof value !== 'number') return err('Not a valid string.');
  const trimmed = String(value).trim();
  return trimmed === '' ? err('This field may not be blank.', 'blank') : trimmed;
}

export function choice(
  value: unknown,
  choices: readonly string[],
  allowNull = false,
): Outcome<string | null> {
  if (value === null) return allowNull ? null : notNull();
  // ChoiceField looks str(data) up among the choices, and shows it when it is not one.
  const key = pyStr(value);
  return choices.includes(key) ? key : err(`"${key}" is not a valid choice.`, 'invalid_choice');
}

/** Python's str() of a JSON value, near enough for the messages that show one. */
export const pyStr = (v: unknown): string =>
  v === true
    ? 'True'
    : v === false
      ? 'False'
      : v === null
        ? 'None'
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);

const TRUE = new Set<unknown>([
  true,
  'true',
  'True',
  'TRUE',
  't',
  'T',
  'yes',
  'Yes',
  'YES',
  'y',
  'Y',
  'on',
  'On',
  'ON',
  '1',
  1,
]);
const FALSE = new Set<unknown>([
  false,
  'false',
  'False',
  'FALSE',
  'f',
  'F',
  'no',
  'No',
  'NO',
  'n',
  'N',
  'off',
  'Off',
  'OFF',
  '0',
  0,
]);

export function boolean(value: unknown): Outcome<boolean> {
  if (value === null) return notNull();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return err('Must be a valid boolean.');
}

export function integer(value: unknown, min: number, max: number): Outcome<number | null> {
  if (value === null) return null;
  const n = typeof value === 'string' && /^\s*[+-]?\d+(\.0*)?\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) return err('A valid integer is required.');
  if (n > max) return err(`Ensure this value is less than or equal to ${max}.`, 'max_value');
  if (n < min) return err(`Ensure this value is greater than or equal to ${min}.`, 'min_value');
  return n;
}

const ISO = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d)?)(?:\.(\d{1,6}))?)?(Z|[+-]\d\d:?\d\d)?$/;

/** An ISO 8601 date or datetime in microseconds (naive read as UTC), with its UTC offset in minutes. */
export function isoMicros(text: string): { micros: number; offsetMinutes: number | null } | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const zone = m[4] === undefined ? null : m[4] === 'Z' ? 0 : zoneMinutes(m[4]);
  const millis = Date.parse(`${m[1]}T${m[2] ?? '00:00'}${m[2]?.length === 5 ? ':00' : ''}Z`);
  if (Number.isNaN(millis)) return null;
  const micros = millis * 1000 + Number((m[3] ?? '').padEnd(6, '0')) - (zone ?? 0) * 60_000_000;
  return { micros, offsetMinutes: zone };
}

const zoneMinutes = (zone: string) => {
  const digits = zone.replace(':', '');
  return (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
};

/** DateTimeField: ISO 8601, naive values read as UTC (PostHog's TIME_ZONE). */
export function datetime(value: unknown): Outcome<number | null> {
  if (value === null) return null;
  const parsed = typeof value === 'string' ? isoMicros(value) : null;
  if (parsed === null)
    return err(
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    );
  return parsed.micros;
}

export function stringList(value: unknown): Outcome<string[] | null> {
  if (value === null) return null;
  if (!Array.isArray(value))
    return err(`Expected a list of items but got type "${pyType(value)}".`, 'not_a_list');
  if (value.length === 0) return err('This list may not be empty.', 'empty');
  const errors: ErrorTree = {};
  value.forEach((item, i) => {
    const outcome = text(item, false);
    if (isErrors(outcome)) errors[i] = outcome.errors;
  });
  return Object.keys(errors).length > 0 ? new Invalid(errors) : value.map(String);
}

export function timezone(value: unknown): Outcome<string> {
  // validate_timezone: null becomes UTC.
  if (value === null) return 'UTC';
  const name = pyStr(value);
  try {
    // pytz.all_timezones: the names Intl knows (aliases too), spelt exactly.
    const canonical = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    if (canonical !== name && canonical.toLowerCase() === name.toLowerCase()) throw new RangeError(name);
    return name;
  } catch {
    return err(`"${name}" is not a valid choice.`, 'invalid_choice');
  }
}

/**
 * drf-exceptions-hog's answer for a serializer's errors: the first error, its keys joined by
 * "__" (`attr` null only when the whole key is non_field_errors or __all__, so a nested
 * serializer's own error reads `destination__non_field_errors`), code `invalid` as invalid_input.
 */
export function exceptionsHogError(tree: ErrorTree): ApiError {
  const path: string[] = [];
  let node: FieldError | FieldError[] | ErrorTree = tree;
  while (!Array.isArray(node) && !('detail' in node && 'code' in node)) {
    const first: [string, FieldError | FieldError[] | ErrorTree] = Object.entries(node as ErrorTree)[0]!;
    path.push(first[0]);
    node = first[1];
  }
  const leaf = (Array.isArray(node) ? node[0] : node) as FieldError;
  const joined = path.join('__');
  const attr = joined === '' || joined === 'non_field_errors' || joined === '__all__' ? null : joined;
  return new ApiError(
    400,
    'validation_error',
    leaf.code === 'invalid' ? 'invalid_input' : leaf.code,
    leaf.detail,
    attr,
  );
}
