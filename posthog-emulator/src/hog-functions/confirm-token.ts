// The publish preview's confirm token (products/cdp/backend/api/hog_function.py at 0019077,
// mint_publish_confirm_token and HogFunctionViewSet._unsign_publish_confirm_token): Django's
// TimestampSigner (salt "hogfunction-publish") over `id:draft_updated_at:updated_at`, valid for
// 15 minutes. A token this upstream did not sign is "Invalid."; one signed over another state of
// the function is the caller's to compare (409 stale_update).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fieldError, hogValidationError } from './errors.ts';
import type { HogFunction } from '../model.ts';

/** PUBLISH_CONFIRM_TOKEN_MAX_AGE. */
const MAX_AGE_SECONDS = 15 * 60;
/** This process's signing key (Django's SECRET_KEY). */
const SIGNING_KEY = randomBytes(32);

/** Python's datetime.isoformat() of a UTC timestamp: microseconds only when not zero. */
function isoformat(micros: number): string {
  const base = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  const fraction = micros % 1_000_000;
  return `${base}${fraction === 0 ? '' : `.${String(fraction).padStart(6, '0')}`}+00:00`;
}

/** _publish_confirm_value. */
export const publishConfirmValue = (fn: HogFunction) =>
  `${fn.id}:${fn.draft ? isoformat(fn.draft.updatedAtMicros) : ''}:${isoformat(fn.updatedAtMicros)}`;

const signature = (text: string) =>
  createHmac('sha256', SIGNING_KEY).update(`hogfunction-publish:${text}`).digest('base64url');

/** mint_publish_confirm_token: `value:timestamp:signature`, the timestamp in base 62 as Django writes it. */
export function mintConfirmToken(fn: HogFunction, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const signed = `${publishConfirmValue(fn)}:${base62(nowSeconds)}`;
  return `${signed}:${signature(signed)}`;
}

const tokenError = (detail: string) => hogValidationError({ confirm_token: fieldError(detail) });

/** _unsign_publish_confirm_token: the value the token was signed over, or the 400 PostHog answers. */
export function unsignConfirmToken(token: unknown, nowSeconds = Math.floor(Date.now() / 1000)): string {
  if (typeof token !== 'string' || token === '')
    throw tokenError(
      'Required when confirming a publish. Call publish without confirm first to see what would change and get a token.',
    );
  const cut = token.lastIndexOf(':');
  const signed = token.slice(0, cut);
  const given = Buffer.from(token.slice(cut + 1));
  const expected = Buffer.from(signature(signed));
  const stamp = signed.slice(signed.lastIndexOf(':') + 1);
  if (
    cut < 0 ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    !/^\w+$/.test(stamp)
  )
    throw tokenError('Invalid. Call publish without confirm first to see what would change and get a token.');
  if (nowSeconds - fromBase62(stamp) > MAX_AGE_SECONDS)
    throw tokenError('Expired. Preview the publish again to get a fresh token.');
  return signed.slice(0, signed.lastIndexOf(':'));
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(n: number): string {
  let out = '';
  do {
    out = DIGITS[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out;
}

const fromBase62 = (text: string) => [...text].reduce((n, c) => n * 62 + DIGITS.indexOf(c), 0);
