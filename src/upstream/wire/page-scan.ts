// A page answer (`{"next": …, "previous": …, "results": [ … ]}`) read from its bytes without
// parsing its entries, and located only as far as they are read: a field that reads a few entries
// of a page parses those alone, and a list page can be indexed by each entry's `id` member alone.
//
// What is checked, and when. At once: the members before `results` are JSON (they are parsed)
// and `results`, if any, opens an array. As far as entries are asked for: each is one balanced
// JSON value and entries are separated as JSON's are. When the page's size is asked for, or an
// entry past the last: the rest of the answer (its other members parsed, nothing after it). When
// an entry is read: its own syntax (JSON.parse). So an answer malformed after the entries a field
// reads serves that field. A body cut short in transit is caught before this (undici checks
// Content-Length and chunked framing).
import { malformedUpstreamBody } from '../../errors/codes.ts';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  endOfString,
  endOfValue,
  isSpace,
  memberOf,
  OPEN_BRACE,
  OPEN_BRACKET,
  parseJson,
  stringMembersIn,
} from './json-bytes.ts';

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
    return stringMembersIn(this.bytes, name);
  }

  /**
   * Member `name` of entry `index` (has(index) is true), parsed, without parsing the rest of the
   * entry and reading no further than that member: a config's id (its first member), to index a
   * list page by. undefined when the entry is not an object, has no such member or it is not
   * JSON. When the entry names it twice this is the first, where JSON.parse keeps the last: a
   * caller that indexes by it checks the parsed entry (loaders/destination-configs/lists.ts). A
   * name written with escapes (`"\u0069d"`) is not matched: such an entry is then found by no name.
   */
  member(index: number, name: string): unknown {
    return memberOf(this.bytes, this.bounds[2 * index]!, this.bounds[2 * index + 1]!, name);
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
    this.pos = endOfValue(this.bytes, this.pos);
    if (this.pos < 0) this.fail();
  }

  private skipString(): void {
    this.pos = endOfString(this.bytes, this.pos);
    if (this.pos < 0) this.fail();
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
