// Which of a page's entries are served: the first of each id, in the page's order. An upstream
// page that repeats an id (a row listed twice while the list changed under its query) would give
// a client two edges of one node; the repeat is dropped where it is found, within that page only
// (pages.ts). An entry with no string or numeric `id` is always served: its normaliser decides.

/** An id as a key: numbers and strings apart, UUIDs in any case alike. */
function idKey(id: unknown): string | null {
  if (typeof id === 'string') return `s:${id.toLowerCase()}`;
  if (typeof id === 'number') return `n:${id}`;
  return null;
}

/** The served entries' places among the page's entries, built as entries are located. */
export class UniqueEntries {
  /** Served entry i is the page's entry rawIndex[i]. */
  private readonly rawIndex: number[] = [];
  private readonly seen = new Set<string>();
  /** How many of the page's entries were looked at. */
  private looked = 0;
  /** Whether a repeated id was dropped. */
  repeated = false;

  /** How many of the page's entries were looked at: the next one to `add` is this one. */
  get lookedAt(): number {
    return this.looked;
  }

  /** How many entries are served, of those looked at. */
  get length(): number {
    return this.rawIndex.length;
  }

  /** The page's index of served entry `index` (index < length). */
  rawOf(index: number): number {
    return this.rawIndex[index]!;
  }

  /** Looks at the page's next entry, by its id: served unless an earlier one had that id. */
  add(id: unknown): void {
    const key = idKey(id);
    if (key !== null && this.seen.has(key)) this.repeated = true;
    else {
      if (key !== null) this.seen.add(key);
      this.rawIndex.push(this.looked);
    }
    this.looked++;
  }
}
