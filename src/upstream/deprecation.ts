// What an upstream answer says of its route's end: `Deprecation` (RFC 9745, a structured-field
// date `@<seconds>`), `Sunset` (RFC 8594, an HTTP-date) and a `Link` of relation `sunset`. Read on
// every answer's head; a malformed value is ignored, as if absent, and each is read only up to a
// bound length. PostHog's one deprecation (posthog/middleware.py@003f61b,
// EnvironmentsRewriteMiddleware, on /api/environments/*) sends the draft form `Deprecation: true`:
// read as deprecated with no date given.

/** The longest `Deprecation` or `Sunset` value read; a longer one is ignored. */
const MAX_DATE_FIELD = 64;
/** The longest `Link` field read (all its lines); a longer one is ignored. */
const MAX_LINK_FIELD = 4096;
/** The longest sunset link kept. */
const MAX_URL = 2048;
/** JavaScript's Date range, in seconds either side of the epoch. */
const MAX_EPOCH_SECONDS = 8_640_000_000_000;

/** What one answer said of its route's end; at least one was well-formed. */
export interface UpstreamDeprecation {
  /** When the route was or will be deprecated (ISO 8601); null when not given (or `true`). */
  deprecation: string | null;
  /** When the route is to stop answering (ISO 8601); null when not given. */
  sunset: string | null;
  /** An absolute http(s) link about the sunset; null when not given. */
  link: string | null;
}

type HeaderValue = string | string[] | undefined;

/** The notice of an answer's headers (as undici parses them: lower-case names); null when none. */
export function deprecationOf(headers: Record<string, HeaderValue>): UpstreamDeprecation | null {
  const rawDeprecation = headers.deprecation;
  const rawSunset = headers.sunset;
  const rawLink = headers.link;
  if (rawDeprecation === undefined && rawSunset === undefined && rawLink === undefined) return null;
  const deprecated = deprecationDate(single(rawDeprecation, MAX_DATE_FIELD));
  const sunset = httpDate(single(rawSunset, MAX_DATE_FIELD));
  const linkField = Array.isArray(rawLink) ? rawLink.join(', ') : rawLink;
  const link = linkField !== undefined && linkField.length <= MAX_LINK_FIELD ? sunsetLink(linkField) : null;
  if (deprecated === undefined && sunset === null && link === null) return null;
  return { deprecation: deprecated ?? null, sunset, link };
}

/** One field line's value, trimmed; undefined when absent, repeated or too long. */
function single(value: HeaderValue, max: number): string | undefined {
  if (typeof value !== 'string' || value.length > max) return undefined;
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * RFC 9745: `@<seconds>` (an sf-date: an sf-integer of at most 15 digits) as ISO; null for the
 * draft's `true` (deprecated, no date); undefined when absent or malformed.
 */
function deprecationDate(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return null;
  const found = /^@(-?\d{1,15})$/.exec(value);
  if (!found) return undefined;
  const seconds = Number(found[1]);
  if (Math.abs(seconds) > MAX_EPOCH_SECONDS) return undefined;
  return new Date(seconds * 1000).toISOString();
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = DAYS.join('|');
const MONTH = MONTHS.join('|');
const TIME = String.raw`(\d{2}):(\d{2}):(\d{2})`;
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^(${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850 = new RegExp(`^(${LONG_DAYS.join('|')}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^(${DAY}) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** RFC 9110's HTTP-date, in any of its three forms, as ISO; null when absent or malformed. */
export function httpDate(value: string | undefined): string | null {
  if (value === undefined) return null;
  let found = IMF_FIXDATE.exec(value);
  if (found) return dateOf(found[1]!, found[4]!, found[3]!, found[2]!, found.slice(5, 8));
  found = ASCTIME.exec(value);
  if (found) return dateOf(found[1]!, found[7]!, found[2]!, found[3]!.trim(), found.slice(4, 7));
  found = RFC850.exec(value);
  if (!found) return null;
  // A two-digit year more than 50 years ahead is the most recent past year with those digits.
  const thisYear = new Date().getUTCFullYear();
  let year = Math.floor(thisYear / 100) * 100 + Number(found[4]);
  if (year > thisYear + 50) year -= 100;
  const day = DAYS[LONG_DAYS.indexOf(found[1]!)]!;
  return dateOf(day, String(year), found[3]!, found[2]!, found.slice(5, 8));
}

/** The date of these parts, checked (a 31 Feb or a wrong weekday is malformed); null if not one. */
function dateOf(day: string, year: string, month: string, date: string, time: string[]): string | null {
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 60) return null;
  const monthIndex = MONTHS.indexOf(month);
  const at = new Date(
    Date.UTC(Number(year), monthIndex, Number(date), hours, minutes, Math.min(seconds, 59)),
  );
  if (at.getUTCMonth() !== monthIndex || at.getUTCDate() !== Number(date)) return null;
  if (DAYS[at.getUTCDay()] !== day) return null;
  return at.toISOString();
}

const OWS = /[ \t]*/y;
const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const QUOTED = /"((?:[^"\\]|\\[\t -~])*)"/y;

/** The first link of relation `sunset` in a Link field (RFC 8288), absolute http(s); else null. */
export function sunsetLink(field: string): string | null {
  const reader = { text: field, at: 0 };
  while (reader.at < field.length) {
    skip(reader, /[ \t,]*/y);
    if (reader.at >= field.length) return null;
    if (field[reader.at] !== '<') return null;
    const end = field.indexOf('>', reader.at);
    if (end < 0) return null;
    const target = field.slice(reader.at + 1, end);
    reader.at = end + 1;
    const relations = linkRelations(reader);
    if (relations === null) return null;
    if (relations.includes('sunset')) return absoluteLink(target);
  }
  return null;
}

interface Reader {
  text: string;
  at: number;
}

function skip(reader: Reader, pattern: RegExp): string | null {
  pattern.lastIndex = reader.at;
  const found = pattern.exec(reader.text);
  if (!found) return null;
  reader.at = pattern.lastIndex;
  return found[0];
}

/** A link-value's params up to its end: the relations its `rel` names; null when malformed. */
function linkRelations(reader: Reader): string[] | null {
  let relations: string[] = [];
  for (;;) {
    skip(reader, OWS);
    if (reader.at >= reader.text.length || reader.text[reader.at] === ',') return relations;
    if (reader.text[reader.at] !== ';') return null;
    reader.at++;
    skip(reader, OWS);
    const name = skip(reader, TOKEN);
    if (name === null) return null;
    skip(reader, OWS);
    if (reader.text[reader.at] !== '=') continue;
    reader.at++;
    skip(reader, OWS);
    const quoted = skip(reader, QUOTED);
    const value = quoted === null ? skip(reader, TOKEN) : quoted.slice(1, -1).replace(/\\(.)/g, '$1');
    if (value === null) return null;
    if (name.toLowerCase() === 'rel' && relations.length === 0)
      relations = value.toLowerCase().split(/[ \t]+/);
  }
}

function absoluteLink(target: string): string | null {
  if (target.length > MAX_URL) return null;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return url.href.length <= MAX_URL ? url.href : null;
}
