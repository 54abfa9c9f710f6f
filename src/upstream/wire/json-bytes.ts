// JSON read from its bytes without parsing it: where a value ends, and members found by name.
// The `endOf…` functions return the offset just past the value at `pos`, or -1 when the bytes
// there are not one; they check balance and delimiters, not the value's own syntax (JSON.parse
// does, when the value is read).
import { malformedUpstreamBody } from '../../errors/codes.ts';

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

export const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Past the value at `pos`: a string, an object or array, or a scalar; -1 when there is none. */
export function endOfValue(bytes: Buffer, pos: number): number {
  const c = bytes[pos];
  if (c === QUOTE) return endOfString(bytes, pos);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return endOfNested(bytes, pos);
  return endOfScalar(bytes, pos);
}

/** Past the string at `pos`'s closing quote; -1 when `pos` holds no quote or the string runs out. */
export function endOfString(bytes: Buffer, pos: number): number {
  if (bytes[pos] !== QUOTE) return -1;
  let i = pos + 1;
  for (;;) {
    const c = bytes[i];
    if (c === QUOTE) return i + 1;
    if (c === undefined) return -1;
    i += c === BACKSLASH ? 2 : 1;
  }
}

/** Past an object or array: brackets counted outside strings (the hot loop: one pass a byte). */
export function endOfNested(bytes: Buffer, pos: number): number {
  const end = bytes.length;
  let depth = 0;
  for (let i = pos; i < end; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      for (i++; i < end; i++) {
        const s = bytes[i];
        if (s === QUOTE) break;
        if (s === BACKSLASH) i++;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** A number, true, false or null: whatever runs to the next delimiter (parsed when read). */
export function endOfScalar(bytes: Buffer, pos: number): number {
  let i = pos;
  for (; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
  }
  return i === pos ? -1 : i;
}

/**
 * Member `name` of the value in bytes [start, end), parsed, without parsing the rest of it and
 * reading no further than that member. undefined when the value is not an object, has no such
 * member or it is not JSON. When the object names it twice this is the first, where JSON.parse
 * keeps the last. A name written with escapes (`"\u0069d"`) is not matched.
 */
export function memberOf(bytes: Buffer, start: number, end: number, name: string): unknown {
  const last = end - 1; // the closing brace, if it is an object
  if (bytes[start] !== OPEN_BRACE) return undefined;
  let valueStart = -1;
  let depth = 0;
  let atKey = true;
  let i = start + 1;
  for (; i < last; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      const from = i + 1;
      for (i++; i < last && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
      if (depth === 0 && atKey) {
        atKey = false;
        if (i - from === name.length && spells(bytes, from, name)) valueStart = i + 1;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && depth === 0) {
      if (valueStart >= 0) break;
      atKey = true;
    }
  }
  if (valueStart < 0) return undefined;
  // What lies between the name's closing quote and the separator: a colon, then the value.
  const text = bytes.toString('utf8', valueStart, i).trimStart();
  if (text[0] !== ':') return undefined;
  try {
    return JSON.parse(text.slice(1));
  } catch {
    return undefined;
  }
}

/**
 * The text of each string member `name` written as `"name":"text"` anywhere in the bytes (no
 * space, as PostHog's compact JSON has it), found by a native search without walking the
 * values. A string with escapes comes out as written; a member written otherwise is not found.
 */
export function stringMembersIn(bytes: Buffer, name: string): string[] {
  // Searched from the name on: a needle that starts with a quote stops at every quote.
  const needle = Buffer.from(`${name}":"`);
  const found: string[] = [];
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + needle.length)) {
    if (bytes[at - 1] !== QUOTE) continue;
    const from = at + needle.length;
    const to = bytes.indexOf(QUOTE, from);
    if (to < 0) break;
    found.push(bytes.toString('utf8', from, to));
  }
  return found;
}

/** Whether the bytes at `from` are `name`'s (an ASCII name). */
function spells(bytes: Buffer, from: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (bytes[from + k] !== name.charCodeAt(k)) return false;
  return true;
}

/** JSON.parse, its refusal UPSTREAM_UNAVAILABLE. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedUpstreamBody();
  }
}
