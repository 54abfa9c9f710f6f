// A list answer as a page: its entries over the answer's scanned bytes (page-scan.ts), and the
// list's place (count, next and previous) read from the members around them. An entry whose id an
// earlier entry of the page had is not served (unique-entries.ts): every index below counts the
// served entries only, and the first repeat is logged once per route (repeated-ids-log.ts).
import { codedError, malformedUpstreamBody } from '../../errors/codes.ts';
import { cursorFromLink, offsetFromLink } from './links.ts';
import { type ScannedPage, scanPage } from './page-scan.ts';
import { reportRepeatedIds } from './repeated-ids-log.ts';
import { UniqueEntries } from './unique-entries.ts';

/**
 * A page answer's entries over its scanned bytes (page-scan.ts): located as far as they are asked
 * for, parsed and normalised when first read. The upstream sends up to 100 a page; a screen
 * usually shows a few, and a cross-link reads the few configs it names from a list page. Parsing
 * and normalising them all was most of the garbage a combined view and an activity page made
 * (npm run bench). A request's loaders hold its pages until it ends, so what a page holds is the
 * answer's bytes (outside the JS heap) and the entries read, not every parsed entry surviving
 * each young-generation GC.
 */
class PageEntries<T> {
  private readonly items: (T | undefined)[] = [];
  /** `head` has read every entry below this (or all the page holds). */
  private readAhead = 0;
  /**
   * The answer's scan, over its bytes; null once `head` has read every entry. The bytes are
   * views of the socket's read buffers, outside the JS heap: a page its request keeps to the
   * end outlives a young-generation GC, and its bytes were then freed only at the next
   * mark-compact. Under load that held 15-25 MB of dead answers (process.memoryUsage's
   * arrayBuffers; bare yoga, which drops each answer once parsed, about 1 MB) and was most of
   * the gateway's peak RSS above bare yoga's on a project's destinations (docs/performance.md).
   * A page read whole lets them go at once, while they are still young.
   */
  private scanned: ScannedPage | null;
  /** How many entries the page holds, once known without a scan: `head` parsed it whole. */
  private parsedSize: number | null = null;
  /** The served entries among the answer's, located as far as read. */
  private readonly unique = new UniqueEntries();

  constructor(
    scanned: ScannedPage,
    private readonly normalize: (raw: unknown) => T,
    /** The upstream path the page was read from, for the repeated-id log line. */
    private readonly path?: string,
  ) {
    this.scanned = scanned;
  }

  /** Whether the page has an entry at `index`; cheaper than `size` for a walk from the top. */
  has(index: number): boolean {
    return this.scanned ? this.locate(index) : index < this.items.length;
  }

  /** How many entries the page holds (the whole answer is scanned, unless `head` parsed it). */
  get size(): number {
    if (this.parsedSize === null) this.locate(Number.POSITIVE_INFINITY);
    return this.parsedSize ?? this.unique.length;
  }

  /** The entry at `index` (has(index) is true). */
  at(index: number): T {
    let item = this.items[index];
    if (item === undefined) {
      this.locate(index);
      item = this.normalize(this.scanned!.entry(this.unique.rawOf(index)));
      this.items[index] = item;
    }
    return item;
  }

  /** Served entries located up to `index`, each by its `id` member alone; whether it exists. */
  private locate(index: number): boolean {
    const scanned = this.scanned!;
    const unique = this.unique;
    while (unique.length <= index && scanned.has(unique.lookedAt)) {
      unique.add(scanned.member(unique.lookedAt, 'id'));
    }
    this.reportRepeats();
    return index < unique.length;
  }

  private reportRepeats(): void {
    if (this.unique.repeated) reportRepeatedIds(this.path);
  }

  /** Whether the entry at `index` was read (parsed and normalised) already. */
  isRead(index: number): boolean {
    return this.items[index] !== undefined;
  }

  /**
   * The first `count` entries (fewer if the page holds fewer), for a connection that shows them
   * all: the answer parsed whole, in one JSON.parse, where reading each entry from the scan cost
   * half again as much (each located entry decoded and parsed alone, 100 times over). An answer
   * JSON.parse refuses is read entry by entry instead: the entries before a bad one are read and
   * the bad one fails where it is, as `at` would.
   */
  head(count: number): T[] {
    if (count > this.readAhead && this.scanned) {
      const all = this.scanned.parseEntries();
      if (all === undefined) return this.walk(count);
      const unique = this.unique;
      for (let r = unique.lookedAt; r < all.length; r++) unique.add(idOf(all[r]));
      this.reportRepeats();
      this.parsedSize = unique.length;
      const length = Math.min(count, unique.length);
      for (let i = 0; i < length; i++) this.items[i] ??= this.normalize(all[unique.rawOf(i)]);
      this.readAhead = count;
      if (length === unique.length) this.scanned = null;
    }
    return this.items.slice(0, count) as T[];
  }

  /** The first `count` entries, each located and parsed alone. */
  private walk(count: number): T[] {
    const head: T[] = [];
    for (let i = 0; i < count && this.has(i); i++) head.push(this.at(i));
    return head;
  }

  /** ScannedPage.stringMembers; null once the page's bytes are let go (every entry read). */
  stringMembers(name: string): string[] | null {
    return this.scanned?.stringMembers(name) ?? null;
  }

  /**
   * Member `name` of the entry at `index` as the upstream sent it, the entry left unparsed; for
   * an entry not read yet (isRead is false), whose page therefore still holds its bytes.
   */
  member(index: number, name: string): unknown {
    if (!this.scanned || !this.locate(index)) return undefined;
    return this.scanned.member(this.unique.rawOf(index), name);
  }
}

/** A parsed entry's `id` member, as ScannedPage.member reads it from the bytes. */
const idOf = (entry: unknown): unknown =>
  entry !== null && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as { id?: unknown }).id
    : undefined;

/** A page of a cursor list (the activity log). */
export class CursorPage<T> extends PageEntries<T> {
  constructor(
    scanned: ScannedPage,
    normalize: (raw: unknown) => T,
    /** Read from the `next` link's cursor; null when there is no next page. */
    readonly nextCursor: string | null,
    /** Read from the `previous` link's cursor; null when this is the first page. */
    readonly previousCursor: string | null,
    path?: string,
  ) {
    super(scanned, normalize, path);
  }
}

/** A page of a limit/offset list (configs, projects). */
export class OffsetPage<T> extends PageEntries<T> {
  private checkedCount: number | null = null;

  constructor(
    scanned: ScannedPage,
    normalize: (raw: unknown) => T,
    /** The upstream's `count` member, as sent. */
    private readonly upstreamCount: unknown,
    /** Where this page starts in the list. */
    private readonly offset: number,
    /** Read from the `next` link's offset; null when there is no next page. */
    readonly nextOffset: number | null,
    path?: string,
  ) {
    super(scanned, normalize, path);
  }

  /**
   * How many the whole list holds: the upstream's `count`, else this page's size. Checked against
   * the page when first asked, or when the page is read (`head`), whichever comes first: a page
   * read whole knows its size without the scan that checking it at once took (a third as much
   * CPU again as parsing a page of 100 configs, --cpu-prof).
   */
  get count(): number {
    this.checkedCount ??= checkedCount(this.upstreamCount, this.offset, this.size);
    return this.checkedCount;
  }

  override head(count: number): T[] {
    const head = super.head(count);
    void this.count;
    return head;
  }
}

/**
 * A list count that this page could belong to (it becomes a connection's totalCount): a whole
 * number, at least the items up to this page's end, at most MAX_LIST_COUNT; anything else fails
 * the list.
 */
function checkedCount(count: unknown, offset: number, size: number): number {
  const total = count === undefined || count === null ? offset + size : count;
  if (!Number.isSafeInteger(total) || (total as number) < offset + size || (total as number) > MAX_LIST_COUNT)
    throw codedError(
      'UPSTREAM_ERROR',
      `The upstream's list count (${String(count).slice(0, 20)}) cannot be right for a page of ${size} items at offset ${offset}: the list is not answered.`,
    );
  return total as number;
}

/** A page answer read with `parseAnswer: false`, scanned; one with no `results` array is malformed. */
function scanAnswer(answer: { chunks: readonly Buffer[] }, needed: readonly string[]): ScannedPage {
  const scanned = scanPage(answer.chunks, needed);
  if (!scanned.hasEntries) throw malformedUpstreamBody();
  return scanned;
}

/** More items than any list of one project holds: a count past it is the upstream's mistake. */
export const MAX_LIST_COUNT = 10_000_000;

/**
 * An offset page from its answer's bytes, read at `offset`. A `count` that no page at `offset`
 * could have fails at once; whether it holds for this page's size is checked by OffsetPage.
 */
export function normalizeOffsetPage<T>(
  answer: { chunks: readonly Buffer[] },
  item: (raw: unknown) => T,
  offset = 0,
  path?: string,
): OffsetPage<T> {
  const scanned = scanAnswer(answer, ['count', 'next']);
  const { count, next } = scanned.members;
  if (count !== undefined && count !== null) checkedCount(count, offset, 0);
  return new OffsetPage(scanned, item, count, offset, offsetFromLink(next)?.offset ?? null, path);
}

/** A cursor page from its answer's bytes. */
export function normalizeCursorPage<T>(
  answer: { chunks: readonly Buffer[] },
  item: (raw: unknown) => T,
  path?: string,
): CursorPage<T> {
  const scanned = scanAnswer(answer, ['next', 'previous']);
  const { next, previous } = scanned.members;
  return new CursorPage(scanned, item, cursorFromLink(next), cursorFromLink(previous), path);
}
