// Operation names as metric label values, bounded: a name is the caller's free text, so only
// the names of the persisted-operation manifest and the first MAX_SEEN well-formed names of
// operations that ran with a key the upstream accepted get a value of their own; every other name folds into `other`, and an operation
// without a name is `anonymous`. A frontend sends a few dozen names, so in practice every real
// name keeps its own series, and a client inventing names cannot grow the metrics without bound.
const MAX_SEEN = 100;
const WELL_FORMED = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const ANONYMOUS = 'anonymous';
export const OTHER_OPERATION = 'other';

export class OperationNames {
  private readonly known: Set<string>;
  private seen = 0;

  constructor(manifestNames: Iterable<string> = []) {
    this.known = new Set(manifestNames);
  }

  /**
   * `mayLearn`: whether this operation may give a new name a value of its own. Only one whose key
   * the upstream accepted may, so names invented without a key cannot take every place before a
   * real screen's name is seen.
   */
  label(name: string | null, mayLearn: boolean): string {
    if (!name) return ANONYMOUS;
    if (this.known.has(name)) return name;
    if (!mayLearn || this.seen >= MAX_SEEN || !WELL_FORMED.test(name)) return OTHER_OPERATION;
    this.seen++;
    this.known.add(name);
    return name;
  }
}
