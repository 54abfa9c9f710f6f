// The page scanner finds the same entries and members JSON.parse does, in any JSON the upstream
// might write (any spacing, escapes, multi-byte text, nesting, member order, split across
// socket reads), and refuses as UPSTREAM_UNAVAILABLE whatever is not a JSON object of that shape.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ScannedPage, scanPage } from '../../src/upstream/wire/page-scan.ts';
import { codeOf } from '../support/code-of.ts';

const entriesOf = (page: ScannedPage) => Array.from({ length: page.size }, (_, i) => page.entry(i));

/** The text split into `parts` chunks at arbitrary byte offsets, as a socket might deliver it. */
function chunked(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const offsets = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const to of offsets) {
    chunks.push(bytes.subarray(from, to));
    from = to;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/** JSON.stringify with random whitespace between tokens (spacing JSON allows). */
const spaced = (value: unknown, space: string) => JSON.stringify(value, null, space);

describe('scanning a page answer', () => {
  it('finds the entries and members JSON.parse finds, in any spacing, order and chunking', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '😀', '\n', '\u0000', ' '),
    });
    const entry = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.dictionary(text, fc.jsonValue({ maxDepth: 3 })),
      text,
    );
    const link = fc.oneof(fc.constant(null), text);
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 12 }),
        link,
        link,
        fc.constantFrom('', ' ', '\t', '\n  ', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 4 }),
        (results, next, previous, space, resultsFirst, cuts) => {
          const body = resultsFirst
            ? { results, next, previous, count: 3 }
            : { next, count: 3, previous, results };
          const page = scanPage(chunked(spaced(body, space), cuts), ['next', 'previous']);
          // The needed members are there before any entry is asked for, wherever they were.
          expect([page.members.next, page.members.previous]).toEqual([next, previous]);
          expect(page.hasEntries).toBe(true);
          expect(results.length === 0 || page.has(results.length - 1)).toBe(true);
          expect(page.has(results.length)).toBe(false);
          expect(page.size).toBe(results.length);
          expect(entriesOf(page)).toEqual(JSON.parse(JSON.stringify(results)));
          expect(page.members).toEqual({ next, previous, count: 3 });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads one member of an entry as JSON.parse reads it, leaving the entry unparsed', () => {
    const key = fc.constantFrom('id', 'i', 'idx', 'di', 'ID', 'a', 'id ', ' id');
    const entry = fc.oneof(
      fc.dictionary(key, fc.jsonValue({ maxDepth: 3 })),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 8 }),
        fc.constantFrom('', ' ', '\n  ', '\r\n'),
        fc.array(fc.nat(), { maxLength: 3 }),
        (results, space, cuts) => {
          const page = scanPage(chunked(spaced({ results }, space), cuts), []);
          const parsed = JSON.parse(JSON.stringify(results)) as unknown[];
          expect(page.size).toBe(parsed.length);
          parsed.forEach((value, i) => {
            const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
            const expected = isObject ? (value as Record<string, unknown>).id : undefined;
            expect(page.member(i, 'id')).toEqual(expected);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a member named twice as its first, and what it cannot read as absent', () => {
    const page = scanPage(
      [Buffer.from('{"results": [{"id": 1, "id": 2}, {"\\u0069d": 3}, {"id": tru}, {"a": {"id": 4}}]}')],
      [],
    );
    expect(page.size).toBe(4);
    expect([0, 1, 2, 3].map((i) => page.member(i, 'id'))).toEqual([1, undefined, undefined, undefined]);
    // A bad member does not fail the page: the entry still fails, and alone, when it is read.
    expect(page.entry(3)).toEqual({ a: { id: 4 } });
    expect(codeOf(() => page.entry(2))).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('parses every entry at once as JSON.parse does, and says when it cannot', () => {
    const body = { count: 2, results: [{ id: 1, a: [1, { b: 'é' }] }, 'x', null] };
    expect(scanPage([Buffer.from(JSON.stringify(body))], ['count']).parseEntries()).toEqual(body.results);
    const bad = scanPage([Buffer.from('{"results": [{"id": 1}, {"id": tru}]}')], []);
    expect(bad.parseEntries()).toBeUndefined();
    expect(bad.has(0) && bad.entry(0)).toEqual({ id: 1 });
    expect(scanPage([Buffer.from('{"results": [], "results": {}}')], []).parseEntries()).toBeUndefined();
  });

  it('reads the reference upstream’s shape: an empty page, and entries of every kind', () => {
    const empty = scanPage([Buffer.from(' {"next":null,"previous":null,"results":[]} \n')], []);
    expect(empty.size).toBe(0);
    expect(empty.hasEntries).toBe(true);
    const mixed = scanPage([Buffer.from('{"results":[1,-2.5e3,true,null,"x\\"]",{"a":[{}]},[]]}')], []);
    expect(entriesOf(mixed)).toEqual([1, -2500, true, null, 'x"]', { a: [{}] }, []]);
  });

  it('reads a member named __proto__ as a member, as JSON.parse does', () => {
    const page = scanPage([Buffer.from('{"__proto__": {"next": "elsewhere"}, "results": []}')], ['next']);
    expect(page.members.next).toBeUndefined();
    expect(Object.entries(page.members)).toEqual([['__proto__', { next: 'elsewhere' }]]);
  });

  it('says so when `results` is missing or not an array', () => {
    expect(scanPage([Buffer.from('{"next":null}')], []).hasEntries).toBe(false);
    expect(scanPage([Buffer.from('{}')], []).hasEntries).toBe(false);
    const notArray = scanPage([Buffer.from('{"results":{"0":1}}')], []);
    expect(notArray.hasEntries).toBe(false);
    expect(notArray.members.results).toEqual({ '0': 1 });
  });

  it('refuses what is not a JSON object of that shape, as UPSTREAM_UNAVAILABLE', () => {
    const refused = [
      '',
      '   ',
      '[]',
      'null',
      '"results"',
      '<html>502 Bad Gateway</html>',
      // What the reference upstream's `malformed` fault sends: an answer cut short.
      '{"results": [{"id": 1,',
      '{"results": [{"id": "1"}]',
      '{"results": [{"id": "1"} {"id": "2"}]}',
      '{"results": [{"id": "1"},]}',
      '{"results": [,]}',
      '{"results": ["unterminated]}',
      '{"results": []} trailing',
      '{"results": [], }',
      '{results: []}',
      '{"next": nul, "results": []}',
      '{"next": "a" "results": []}',
      '{"next" "a", "results": []}',
      // Two `results`: which one is meant is a guess.
      '{"results": [], "results": []}',
      '{"results": null, "results": [1]}',
    ];
    for (const body of refused) {
      expect([body, codeOf(() => scanPage([Buffer.from(body)], []).size)]).toEqual([
        body,
        'UPSTREAM_UNAVAILABLE',
      ]);
    }
  });

  it('locates entries only as far as they are asked for, and a failed scan stays failed', () => {
    const page = scanPage(
      [Buffer.from('{"next": null, "results": [{"id": "1"}, {"id": "2"} {"id": "3"}]}')],
      ['next'],
    );
    expect(page.members.next).toBeNull();
    expect(page.has(0)).toBe(true);
    expect(page.entry(0)).toEqual({ id: '1' });
    expect(codeOf(() => page.has(1))).toBe('UPSTREAM_UNAVAILABLE');
    expect(codeOf(() => page.size)).toBe('UPSTREAM_UNAVAILABLE');
    expect(codeOf(() => page.has(5))).toBe('UPSTREAM_UNAVAILABLE');
    // A needed member after `results` makes the whole answer scanned at once.
    const late = '{"results": [{"id": "1"}], "next": null} trailing';
    expect(codeOf(() => scanPage([Buffer.from(late)], []))).toBeNull();
    expect(codeOf(() => scanPage([Buffer.from(late)], ['next']))).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('checks an entry’s own syntax when it is read: the others still read', () => {
    const page = scanPage([Buffer.from('{"results": [{"id": "1"}, {"id": tru}, {"id": "3"}]}')], []);
    expect(page.size).toBe(3);
    expect(page.entry(0)).toEqual({ id: '1' });
    expect(codeOf(() => page.entry(1))).toBe('UPSTREAM_UNAVAILABLE');
    expect(page.entry(2)).toEqual({ id: '3' });
  });
});
