// The strict reading of Deprecation (RFC 9745), Sunset (RFC 8594) and Link rel="sunset" (RFC
// 8288): each well-formed value as ISO or an absolute http(s) link, anything else ignored.
import { describe, expect, it } from 'vitest';
import { deprecationOf, httpDate, sunsetLink } from '../../src/upstream/deprecation.ts';

describe('deprecationOf', () => {
  it('reads the three headers, and is null when none is there or none is well-formed', () => {
    expect(
      deprecationOf({
        deprecation: '@1735689600',
        sunset: 'Wed, 31 Dec 2025 23:59:59 GMT',
        link: '<https://example.com/a>; rel="sunset"',
      }),
    ).toEqual({
      deprecation: '2025-01-01T00:00:00.000Z',
      sunset: '2025-12-31T23:59:59.000Z',
      link: 'https://example.com/a',
    });
    expect(deprecationOf({ 'content-type': 'application/json' })).toBeNull();
    expect(
      deprecationOf({ deprecation: 'soon', sunset: 'tomorrow', link: '<https://x.test/>; rel=next' }),
    ).toBeNull();
  });

  it('reads `Deprecation: true` (the draft form PostHog sends) as deprecated with no date', () => {
    expect(deprecationOf({ deprecation: 'true' })).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('ignores a malformed, repeated or oversized Deprecation', () => {
    for (const value of ['@', '@1.5', '1735689600', '@1735689600;x=1', '@9999999999999999', 'TRUE', '?1'])
      expect([value, deprecationOf({ deprecation: value })]).toEqual([value, null]);
    expect(deprecationOf({ deprecation: ['@1', '@2'] })).toBeNull();
    expect(deprecationOf({ deprecation: `@1${' '.repeat(100)}` })).toBeNull();
    expect(deprecationOf({ deprecation: ' @0 ' })?.deprecation).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('httpDate', () => {
  it('reads the three forms of RFC 9110', () => {
    expect(httpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe('1994-11-06T08:49:37.000Z');
    expect(httpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe('1994-11-06T08:49:37.000Z');
    expect(httpDate('Sun Nov  6 08:49:37 1994')).toBe('1994-11-06T08:49:37.000Z');
  });

  it('refuses a wrong weekday, a date that is not one, an hour past 23, or another zone', () => {
    for (const value of [
      'Mon, 06 Nov 1994 08:49:37 GMT',
      'Thu, 31 Feb 2025 00:00:00 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      '2025-12-31T23:59:59Z',
      '',
    ])
      expect([value, httpDate(value)]).toEqual([value, null]);
  });
});

describe('sunsetLink', () => {
  it('finds the link of relation sunset among others, in any case and in a list of relations', () => {
    expect(sunsetLink('<https://a.test/next>; rel=next, <https://a.test/s>; rel="Sunset"')).toBe(
      'https://a.test/s',
    );
    expect(sunsetLink('<https://a.test/s>; title="a, b; c"; rel="deprecation sunset"')).toBe(
      'https://a.test/s',
    );
    expect(sunsetLink('<https://a.test/s>;rel=sunset;type="text/html"')).toBe('https://a.test/s');
  });

  it('keeps only an absolute http(s) link without credentials, within its length', () => {
    expect(sunsetLink('</relative>; rel="sunset"')).toBeNull();
    expect(sunsetLink('<javascript:alert(1)>; rel="sunset"')).toBeNull();
    expect(sunsetLink('<https://u:p@a.test/>; rel="sunset"')).toBeNull();
    expect(sunsetLink(`<https://a.test/${'x'.repeat(2100)}>; rel="sunset"`)).toBeNull();
  });

  it('stops at a malformed field', () => {
    expect(sunsetLink('https://a.test/s; rel="sunset"')).toBeNull();
    expect(sunsetLink('<https://a.test/s; rel="sunset"')).toBeNull();
    expect(sunsetLink('<https://a.test/s> rel="sunset"')).toBeNull();
    expect(sunsetLink('<https://a.test/s>; rel="sunset')).toBeNull();
  });

  it('ignores a Link field longer than its bound', () => {
    const long = `${'<https://a.test/x>; rel=next, '.repeat(200)}<https://a.test/s>; rel=sunset`;
    expect(deprecationOf({ link: long })).toBeNull();
    expect(
      deprecationOf({ link: ['<https://a.test/n>; rel=next', '<https://a.test/s>; rel=sunset'] })?.link,
    ).toBe('https://a.test/s');
  });
});
