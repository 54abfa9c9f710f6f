// A page answer (`{"next": …, "previous": …, "results": [ … ]}`) read from its bytes without
// parsing its entries. The upstream sends 100 activity entries a page and a screen reads a few:
// JSON.parse of a whole 63 KB page took 280 µs and made every entry's objects only for most to
// be dropped, where finding where each entry starts and ends takes about 80 µs and makes nothing
// (npm run bench: the combined view reads two such pages an operation).
//
// What is checked here: the answer is one JSON object, its members other than `results` are
// JSON (they are parsed), `results` is an array whose elements are balanced and separated as
// JSON's are, and nothing follows. What is not: an entry's own syntax, which JSON.parse checks
// when the entry is read. An entry no field reads is never checked, as it was never normalised.
import { malformedUpstreamBody } from './errors.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A page answer as scanned: its members parsed, its entries located. */
export class ScannedPage {
  constructor(
    private readonly bytes: Buffer,
    /** Entry i is bytes [bounds[2i], bounds[2i + 1]); null when `results` is not an array. */
    private readonly bounds: readonly number[] | null,
    /** The object's other members, parsed. */
    readonly members: Readonly<Record<string, unknown>>,
  ) {}

  /** Whether `results` was an array. */
  get hasEntries(): boolean {
    return this.bounds !== null;
  }

  /** How many entries `results` holds. */
  get size(): number {
    return this.bounds === null ? 0 : this.bounds.length / 2;
  }

  /** Entry `index` (0 ≤ index < size), parsed now; malformed JSON is UPSTREAM_UNAVAILABLE. */
  entry(index: number): unknown {
    const bounds = this.bounds!;
    return parseJson(this.bytes.toString('utf8', bounds[2 * index], bounds[2 * index + 1]));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedUpstreamBody();
  }
}

/** Scans a page answer; anything but a JSON object with the structure above is UPSTREAM_UNAVAILABLE. */
export function scanPage(chunks: readonly Buffer[]): ScannedPage {
  // One buffer to index: a page usually arrives in a few socket reads.
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return new Scanner(bytes).page();
}

class Scanner {
  private pos = 0;

  constructor(private readonly bytes: Buffer) {}

  page(): ScannedPage {
    const members: Record<string, unknown> = {};
    let bounds: number[] | null = null;
    this.expect(OPEN_BRACE);
    this.skipSpace();
    if (this.bytes[this.pos] === CLOSE_BRACE) this.pos++;
    else {
      for (;;) {
        this.skipSpace();
        const key = this.parseNext(() => this.skipString()) as string;
        this.expect(COLON);
        this.skipSpace();
        if (key === 'results' && this.bytes[this.pos] === OPEN_BRACKET) {
          bounds = this.entryBounds();
          delete members.results;
        } else {
          members[key] = this.parseNext(() => this.skipValue());
          if (key === 'results') bounds = null;
        }
        this.skipSpace();
        const separator = this.bytes[this.pos++];
        if (separator === CLOSE_BRACE) break;
        if (separator !== COMMA) this.fail();
      }
    }
    this.skipSpace();
    if (this.pos !== this.bytes.length) this.fail();
    return new ScannedPage(this.bytes, bounds, members);
  }

  /** Where each element of the array at `pos` starts and ends; leaves `pos` past the array. */
  private entryBounds(): number[] {
    const bounds: number[] = [];
    this.pos++;
    this.skipSpace();
    if (this.bytes[this.pos] === CLOSE_BRACKET) {
      this.pos++;
      return bounds;
    }
    for (;;) {
      this.skipSpace();
      const start = this.pos;
      this.skipValue();
      bounds.push(start, this.pos);
      this.skipSpace();
      const separator = this.bytes[this.pos++];
      if (separator === CLOSE_BRACKET) return bounds;
      if (separator !== COMMA) this.fail();
    }
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

  private fail(): never {
    throw malformedUpstreamBody();
  }
}
