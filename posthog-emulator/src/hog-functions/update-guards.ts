// What an update of a hog function checks before it writes (products/cdp/backend/api/hog_function.py
// at 0019077, HogFunctionSerializer.base_updated_at and HogFunctionViewSet.perform_update): enabling
// a disabled function while a draft is staged is refused (400 on `enabled`), and a
// `base_updated_at` older than the stored `updated_at` is 409 stale_update. Personal API keys never
// have their edits routed to the draft, so the guard compares against `updated_at`.
import { fieldError, hogValidationError, viewValidationError } from './errors.ts';
import { staleUpdate } from './conflicts.ts';
import type { HogFunction } from '../model.ts';

/** ENABLE_WITH_OPEN_DRAFT_MESSAGE. */
const ENABLE_WITH_OPEN_DRAFT =
  "This function has config staged for review. Publish or discard it before enabling, so you don't turn on config nobody looked at.";

const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * serializers.DateTimeField read as Django's parse_datetime reads it (a naive time is UTC, the
 * project's time zone here), to epoch microseconds; null when it is no date-time.
 */
export function parseDateTimeMicros(value: unknown): number | null {
  const m = typeof value === 'string' ? DATETIME.exec(value.trim()) : null;
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone = 'Z'] = m;
  const millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(millis) || new Date(millis).getUTCDate() !== Number(d)) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    offsetMinutes =
      (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3) || 0)) * (zone[0] === '-' ? -1 : 1);
  }
  return (millis - offsetMinutes * 60_000) * 1000 + Number(frac.padEnd(6, '0'));
}

/** Throws the answer PostHog gives when this update may not be written; `enabling` is the validated `enabled`. */
export function guardHogFunctionUpdate(
  fn: HogFunction,
  body: Record<string, unknown>,
  enabling?: boolean,
): void {
  let base: number | null = null;
  if (body.base_updated_at === null)
    throw hogValidationError({ base_updated_at: [fieldError('This field may not be null.', 'null')] });
  if (body.base_updated_at !== undefined) {
    base = parseDateTimeMicros(body.base_updated_at);
    if (base === null)
      throw hogValidationError({
        base_updated_at: [
          fieldError(
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ),
        ],
      });
  }
  if (enabling === true && fn.draft && !fn.enabled)
    throw viewValidationError('enabled', ENABLE_WITH_OPEN_DRAFT);
  if (base !== null && fn.updatedAtMicros > base) throw staleUpdate();
}
