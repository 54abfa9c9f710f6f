// Django REST framework's two paginators as PostHog configures them. Links are absolute URLs on
// the origin the upstream believes it serves (its Host header, or --public-base behind a proxy),
// with the query keys sorted, exactly as DRF's replace_query_param writes them.
import { notFound } from './api-error.ts';

export const DEFAULT_PAGE_SIZE = 100;

export interface RequestUrl {
  /** e.g. `http://localhost:8010`: what DRF's build_absolute_uri would start with. */
  origin: string;
  /** The path as requested, trailing slash and all. */
  path: string;
  query: URLSearchParams;
}

export function linkWith(url: RequestUrl, set: Record<string, string>, drop: string[] = []): string {
  const keys = new Map<string, string[]>();
  for (const [k, v] of url.query) keys.set(k, [...(keys.get(k) ?? []), v]);
  for (const [k, v] of Object.entries(set)) keys.set(k, [v]);
  for (const k of drop) keys.delete(k);
  const sorted = new URLSearchParams();
  for (const k of [...keys.keys()].sort()) for (const v of keys.get(k)!) sorted.append(k, v);
  const query = sorted.toString();
  return `${url.origin}${url.path}${query ? `?${query}` : ''}`;
}

/** Python's int() on a query value, and DRF's _positive_int: anything else is "not given". */
export function positiveInt(value: string | null, strict: boolean): number | undefined {
  if (value === null || !/^\s*\+?\d+\s*$/.test(value)) return undefined;
  const n = Number(value.trim());
  return n === 0 && strict ? undefined : n;
}

export function limitOffsetPage<T>(items: readonly T[], url: RequestUrl) {
  const limit = positiveInt(url.query.get('limit'), true) ?? DEFAULT_PAGE_SIZE;
  const offset = positiveInt(url.query.get('offset'), false) ?? 0;
  const count = items.length;
  const next =
    offset + limit < count ? linkWith(url, { limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) {
    previous =
      offset - limit <= 0
        ? linkWith(url, { limit: String(limit) }, ['offset'])
        : linkWith(url, { limit: String(limit), offset: String(offset - limit) });
  }
  return { count, next, previous, results: items.slice(offset, offset + limit) };
}

export interface Cursor {
  reverse: boolean;
  /** Microseconds since the epoch of the entry the page starts after (or before, reversed). */
  position: number | null;
}

/** Python's str(datetime) in UTC, which is what DRF puts in a cursor. */
function pythonDatetime(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19).replace('T', ' ');
  const fraction = micros % 1_000_000;
  return `${iso}${fraction ? `.${String(fraction).padStart(6, '0')}` : ''}+00:00`;
}

function parsePythonDatetime(text: string): number | null {
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:\+00:00|Z)?$/.exec(text);
  if (!m) return null;
  const millis = Date.parse(`${m[1]}T${m[2]}Z`);
  if (Number.isNaN(millis)) return null;
  return millis * 1000 + Number((m[3] ?? '').padEnd(6, '0'));
}

export function encodeCursor(cursor: Cursor): string {
  const tokens = new URLSearchParams();
  if (cursor.reverse) tokens.set('r', '1');
  if (cursor.position !== null) tokens.set('p', pythonDatetime(cursor.position));
  return Buffer.from(tokens.toString(), 'ascii').toString('base64');
}

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Python's base64.b64decode(s) (non-strict) then .decode('ascii'), as DRF reads a cursor:
 * characters outside the alphabet are skipped, padding must complete the last quantum, and the
 * text must be ASCII. null where Python raises (DRF then answers 404 "Invalid cursor").
 */
function pythonBase64Ascii(encoded: string): string | null {
  let data = '';
  let pads = 0;
  for (const char of encoded) {
    if (char === '=') {
      // A pad only counts once two data characters of the quantum are in; it may end the input.
      if (data.length % 4 >= 2 && (data.length % 4) + ++pads >= 4) break;
      continue;
    }
    if (!BASE64_ALPHABET.test(char)) continue;
    data += char;
  }
  const partial = data.length % 4;
  if (partial !== 0 && partial + pads < 4) return null;
  const bytes = Buffer.from(data, 'base64');
  return bytes.every((b) => b < 0x80) ? bytes.toString('ascii') : null;
}

export function decodeCursor(encoded: string | null): Cursor {
  if (encoded === null) return { reverse: false, position: null };
  const invalid = () => notFound('Invalid cursor');
  const text = pythonBase64Ascii(encoded);
  if (text === null) throw invalid();
  const tokens = new URLSearchParams(text);
  const offset = tokens.get('o') ?? '0';
  const reverse = tokens.get('r') ?? '0';
  if (!/^\d+$/.test(offset) || !/^\d+$/.test(reverse)) throw invalid();
  const p = tokens.get('p');
  const position = p === null ? null : parsePythonDatetime(p);
  if (p !== null && position === null) throw invalid();
  return { reverse: reverse !== '0', position };
}

/**
 * DRF's CursorPagination over `-created_at`, for items whose positions are all distinct (the
 * store guarantees that), so the cursor never needs DRF's offset token.
 */
export function cursorPage<T>(newestFirst: readonly T[], positionOf: (item: T) => number, url: RequestUrl) {
  const cursor = decodeCursor(url.query.get('cursor'));
  const size = DEFAULT_PAGE_SIZE;
  let page: T[];
  let hasNext: boolean;
  let hasPrevious: boolean;
  if (!cursor.reverse) {
    const rest =
      cursor.position === null ? newestFirst : newestFirst.filter((i) => positionOf(i) < cursor.position!);
    page = rest.slice(0, size);
    hasNext = rest.length > size;
    hasPrevious = cursor.position !== null;
  } else {
    const before = newestFirst.filter((i) => positionOf(i) > cursor.position!);
    page = before.slice(Math.max(0, before.length - size));
    hasPrevious = before.length > size;
    hasNext = true;
  }
  const link = (c: Cursor) => linkWith(url, { cursor: encodeCursor(c) });
  const next =
    hasNext && page.length ? link({ reverse: false, position: positionOf(page[page.length - 1]!) }) : null;
  const previous =
    hasPrevious && page.length ? link({ reverse: true, position: positionOf(page[0]!) }) : null;
  return { next, previous, results: page };
}
