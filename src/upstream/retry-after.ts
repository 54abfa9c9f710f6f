// A 429's Retry-After (RFC 9110 §10.2.3) read as a wait: delta-seconds ("120") or an HTTP-date in
// any of the three forms a recipient must accept (§5.6.7: IMF-fixdate, RFC 850, asctime; all
// GMT). The wait is held between 1 second and MAX_RETRY_AFTER_MS: a date in the past or 0 must not
// retry at once, over and over, and one absurd answer (99,999,999 seconds) must not pause a key on
// every field, and with Redis on every process, for longer than the operator allows. Anything else
// is no Retry-After (null).

/** MAX_RETRY_AFTER_MS's default: a few minutes. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 300_000;
const MIN_SECONDS = 1;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const MONTH = `(${MONTHS.join('|')})`;
/** Sun, 06 Nov 1994 08:49:37 GMT */
const IMF_FIXDATE = new RegExp(`^[A-Z][a-z]{2}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** Sunday, 06-Nov-94 08:49:37 GMT */
const RFC_850 = new RegExp(`^[A-Z][a-z]+, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** Sun Nov  6 08:49:37 1994 */
const ASCTIME = new RegExp(`^[A-Z][a-z]{2} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An RFC 850 date's two-digit year: the one within 50 years from now (RFC 9110 §5.6.7). */
function fullYear(twoDigits: number): number {
  const century = Math.floor(new Date().getUTCFullYear() / 100) * 100;
  const year = century + twoDigits;
  return year > new Date().getUTCFullYear() + 50 ? year - 100 : year;
}

const instant = (year: number, month: string, day: string, h: string, m: string, s: string) =>
  Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(h), Number(m), Number(s));

/** An HTTP-date as milliseconds since the epoch; null when it is none of the three forms. */
export function parseHttpDate(text: string): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match) return instant(Number(match[3]), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = RFC_850.exec(text);
  if (match)
    return instant(fullYear(Number(match[3])), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = ASCTIME.exec(text);
  if (match) return instant(Number(match[6]), match[1]!, match[2]!.trim(), match[3]!, match[4]!, match[5]!);
  return null;
}

/**
 * A Retry-After header as whole seconds to wait, within 1 s and `maxMs` (MAX_RETRY_AFTER_MS); null
 * when it says none.
 */
export function retryAfterSeconds(
  value: string | string[] | undefined,
  maxMs = DEFAULT_MAX_RETRY_AFTER_MS,
): number | null {
  const maxSeconds = Math.max(MIN_SECONDS, Math.floor(maxMs / 1000));
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  const at = /^\d+$/.test(text) ? null : parseHttpDate(text);
  if (at === null && !/^\d+$/.test(text)) return null;
  const seconds = at === null ? Number(text) : Math.ceil((at - Date.now()) / 1000);
  return Math.min(maxSeconds, Math.max(MIN_SECONDS, seconds));
}
