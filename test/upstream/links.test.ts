// The next/previous link reader agrees with URLSearchParams on any link, without building a URL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorFromLink, offsetFromLink } from '../../src/upstream/wire/links.ts';

const reference = (link: string, name: string) => new URL(link, 'http://link.invalid').searchParams.get(name);

describe('reading upstream links', () => {
  it('reads cursor, offset and limit as URLSearchParams does', () => {
    const value = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '+', '/', '=', '%', '2', 'B', ' ', '&', '#', 'é'),
    });
    fc.assert(
      fc.property(value, value, fc.nat(10_000), (cursor, other, offset) => {
        const link = `https://host.example/api/projects/1/activity_log/?a=${encodeURIComponent(other)}&cursor=${encodeURIComponent(cursor)}&limit=100&offset=${offset}#frag`;
        const expected = reference(link, 'cursor');
        expect(cursorFromLink(link)).toBe(expected && expected.length <= 2_000 ? expected : null);
        expect(offsetFromLink(link)).toEqual({ offset, limit: 100 });
      }),
    );
    // DRF writes a base64 cursor's `+` and `=` percent-encoded; a bare `+` is a space.
    expect(cursorFromLink('http://x/?cursor=cD0yMDI1%2B%3D')).toBe('cD0yMDI1+=');
    expect(cursorFromLink('http://x/?cursor=a+b')).toBe('a b');
    expect(cursorFromLink('http://x/?cursor=%E0%A4%A')).toBeNull();
    expect(offsetFromLink('http://x/?limit=5')).toEqual({ offset: 0, limit: 5 });
    expect(offsetFromLink(null)).toBeNull();
  });
});
