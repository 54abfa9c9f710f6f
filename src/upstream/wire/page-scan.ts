// A page answer (`{"next": …, "previous": …, "results": [ … ]}`) read from its bytes without
// parsing its entries, and located only as far as they are read. The upstream sends 100 activity
// entries a page and a screen reads a few: JSON.parse of a whole 63 KB page took 280 µs and made
// every entry's objects only for most to be dropped; finding where all entries start and end took
// 80 µs and still 5 % of a combined view's CPU (npm run bench, --cpu-prof), for the five a field
// reads. A list of 100 configs read for an activity page's cross-link is indexed by each entry's
// `id` member alone, and only the configs the page names are parsed.
//
// What is checked, and when. At once: the members before `results` are JSON (they are parsed)
// and `results`, if any, opens an array. As far as entries are asked for: each is one balanced
// JSON value and entries are separated as JSON's are. When the page's size is asked for, or an
// entry past the last: the rest of the answer (its other members parsed, nothing after it). When
// an entry is read: its own syntax (JSON.parse). So an answer malformed after the entries a field
// reads serves that field. A body cut short in transit is caught before this (undici checks
// Content-Length and chunked framing), so what that leaves is an upstream writing bad JSON past
// what was read, no different from a bad entry never read.
import { malformedUpstreamBody } from '../../errors/codes.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Where the scan stands: before the first entry, before a later one, at the end, or failed. */
type ScanState = 'first-entry' | 'next-entry' | 'done' | 'failed';

/**
 * Scans a page answer's chunks. The `needed` members are read at once: when one follows
 * `results` (neither dialect sends that: next, previous, then results), every entry is located
 * at once to reach it. Whatever is found not to be a JSON object of that shape is
 * UPSTREAM_UNAVAILABLE, thrown from here or from the method that found it.
 */
export function scanPage(chunks: readonly Buffer[], needed: readonly string[]): ScannedPage {
  // One buffer to index: a page usually arrives in a few socket reads.
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const page = new ScannedPage(bytes);
  if (needed.some((name) => !(name in page.members))) void page.size;
  return page;
}

/** A page answer as scanned so far: its members parsed, its entries located as far as read. */
export class ScannedPage {
  /**
   * The object's members other than `results`, parsed as they are reached. Prototype-less, so a
   * member named `__proto__` is a member, as JSON.parse makes it, not this object's prototype.
   */
  readonly members: Record<string, unknown> = Object.create(null);
  /** Entry i is bytes [bounds[2i], bounds[2i + 1]). */
  private readonly bounds: number[] = [];
  private pos = 0;
  private state: ScanState = 'done';
  private hasResults = false;

  constructor(private readonly bytes: Buffer) {
    this.expect(OPEN_BRACE);
    this.skipSpace();
    if (bytes[this.pos] === CLOSE_BRACE) {
      this.pos++;
      this.end();
    } else this.scanMembers();
  }

  /** Whether `results` is an array. */
  get hasEntries(): boolean {
    return this.hasResults;
  }

  /** Whether entry `index` exists: the entries are located up to it. */
  has(index: number): boolean {
    while (this.bounds.length <= 2 * index && this.state !== 'done') this.locateNext();
    return 2 * index < this.bounds.length;
  }

  /** How many entries `results` holds: the whole answer is scanned. */
  get size(): number {
    while (this.state !== 'done') this.locateNext();
    return this.bounds.length / 2;
  }

  /** Entry `index` (has(index) is true), parsed now; malformed JSON is UPSTREAM_UNAVAILABLE. */
  entry(index: number): unknown {
    return parseJson(this.bytes.toString('utf8', this.bounds[2 * index], this.bounds[2 * index + 1]));
  }

  /**
   * Every entry, the answer parsed whole as JSON.parse reads it: cheaper than `entry` one by one
   * when all are read. undefined when JSON.parse refuses the answer or its `results` is not an
   * array; then read `entry` by entry, which fails where the answer is malformed.
   */
  parseEntries(): unknown[] | undefined {
    if (this.state === 'failed') return undefined;
    try {
      const { results } = JSON.parse(this.bytes.toString('utf8')) as { results?: unknown };
      return Array.isArray(results) ? results : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The text of each string member `name` written as `"name":"text"` anywhere in the answer (no
   * space, as PostHog's compact JSON has it), found by a native search without walking the
   * entries: for counting what a page mentions, not for reading it. A string with escapes comes
   * out as written, so it equals no plain text; a member written otherwise is not found.
   */
  stringMembers(name: string): string[] {
    const bytes = this.bytes;
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

  /**
   * Member `name` of entry `index` (has(index) is true), parsed, without parsing the rest of the
   * entry and reading no further than that member: a config's id (its first member), to index a
   * list page by. undefined when the entry is not an object, has no such member or it is not
   * JSON. When the entry names it twice this is the first, where JSON.parse keeps the last: a
   * caller that indexes by it checks the parsed entry (loaders/listed-configs.ts). A name written with
   * escapes (`"\u0069d"`) is not matched: such an entry is then found by no name.
   */
  member(index: number, name: string): unknown {
    const bytes = this.bytes;
    const start = this.bounds[2 * index]!;
    const end = this.bounds[2 * index + 1]! - 1; // the entry's closing brace, if it is an object
    if (bytes[start] !== OPEN_BRACE) return undefined;
    let valueStart = -1;
    let depth = 0;
    let atKey = true;
    let i = start + 1;
    for (; i < end; i++) {
      const c = bytes[i];
      if (c === QUOTE) {
        const from = i + 1;
        for (i++; i < end && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
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

  /** Members from `pos` (past `{` or a `,`) up to `results`' array, or the object's end. */
  private scanMembers(): void {
    for (;;) {
      this.skipSpace();
      const key = this.parseNext(() => this.skipString()) as string;
      this.expect(COLON);
      this.skipSpace();
      // Two `results` are not a page (JSON.parse would keep the last; which is meant is a guess).
      if (key === 'results' && (this.hasResults || 'results' in this.members)) this.fail();
      if (key === 'results' && this.bytes[this.pos] === OPEN_BRACKET) {
        this.pos++;
        this.hasResults = true;
        this.state = 'first-entry';
        return;
      }
      this.members[key] = this.parseNext(() => this.skipValue());
      if (!this.pastMember()) return;
    }
  }

  /** Past the next entry and its separator; past the object's rest after the last entry. */
  private locateNext(): void {
    if (this.state === 'failed') this.fail();
    this.skipSpace();
    if (this.state === 'first-entry' && this.bytes[this.pos] === CLOSE_BRACKET) {
      this.pos++;
      this.resultsEnded();
      return;
    }
    const start = this.pos;
    this.skipValue();
    this.bounds.push(start, this.pos);
    this.skipSpace();
    const separator = this.bytes[this.pos++];
    if (separator === COMMA) this.state = 'next-entry';
    else if (separator === CLOSE_BRACKET) this.resultsEnded();
    else this.fail();
  }

  private resultsEnded(): void {
    this.state = 'done';
    if (this.pastMember()) this.scanMembers();
  }

  /** Past a member's separator: true when another member follows, false at the object's end. */
  private pastMember(): boolean {
    this.skipSpace();
    const separator = this.bytes[this.pos++];
    if (separator === COMMA) return true;
    if (separator !== CLOSE_BRACE) this.fail();
    this.end();
    return false;
  }

  private end(): void {
    this.skipSpace();
    if (this.pos !== this.bytes.length) this.fail();
    this.state = 'done';
  }

  /** The value `skip` passes over, parsed. */
  private parseNext(skip: () => void): unknown {
    const start = this.pos;
    skip();
    return parseJson(this.bytes.toString('utf8', start, this.pos));
  }

  private skipValue(): void {
    const c = this.bytes[this.pos];
    if (c === QUOTE) this.skipString();
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.skipNested();
    else this.skipScalar();
  }

  private skipString(): void {
    const bytes = this.bytes;
    if (bytes[this.pos] !== QUOTE) this.fail();
    let i = this.pos + 1;
    for (;;) {
      const c = bytes[i];
      if (c === QUOTE) break;
      if (c === undefined) this.fail();
      i += c === BACKSLASH ? 2 : 1;
    }
    this.pos = i + 1;
  }

  /** Past an object or array: brackets counted outside strings (the hot loop: one pass a byte). */
  private skipNested(): void {
    const bytes = this.bytes;
    const end = bytes.length;
    let depth = 0;
    for (let i = this.pos; i < end; i++) {
      const c = bytes[i];
      if (c === QUOTE) {
        for (i++; i < end; i++) {
          const s = bytes[i];
          if (s === QUOTE) break;
          if (s === BACKSLASH) i++;
        }
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) {
          this.pos = i + 1;
          return;
        }
      }
    }
    this.fail();
  }

  /** A number, true, false or null: whatever runs to the next delimiter (parsed later, or when read). */
  private skipScalar(): void {
    const bytes = this.bytes;
    const start = this.pos;
    let i = start;
    for (; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
    }
    if (i === start) this.fail();
    this.pos = i;
  }

  private skipSpace(): void {
    while (isSpace(this.bytes[this.pos])) this.pos++;
  }

  private expect(byte: number): void {
    this.skipSpace();
    if (this.bytes[this.pos++] !== byte) this.fail();
  }

  /** A scan that failed stays failed: asked again, it says so again. */
  private fail(): never {
    this.state = 'failed';
    throw malformedUpstreamBody();
  }
}

/** Whether the bytes at `from` are `name`'s (an ASCII name). */
function spells(bytes: Buffer, from: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (bytes[from + k] !== name.charCodeAt(k)) return false;
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedUpstreamBody();
  }
}
