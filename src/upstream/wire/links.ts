// The upstream's next/previous links are absolute URLs on whatever host it believes it serves
// (behind a proxy, not the one the gateway called). The gateway never requests them: it reads
// the one parameter it needs and builds its own request to the configured origin.

/**
 * One parameter of a link's query, decoded as URLSearchParams would (`+` is a space). Read from
 * the text after `?` without building a URL: two links on every page of every list, and a URL
 * object costs more than the rest of reading the page's envelope.
 */
function queryParam(link: unknown, name: string): string | null {
  if (typeof link !== 'string' || link.length === 0) return null;
  const start = link.indexOf('?');
  if (start < 0) return null;
  const end = link.indexOf('#', start);
  const query = link.slice(start + 1, end < 0 ? undefined : end);
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    if (key !== name) continue;
    try {
      return decodeURIComponent(pair.slice(equals + 1).replaceAll('+', ' '));
    } catch {
      return null;
    }
  }
  return null;
}

const nonNegativeInt = (value: string | null | undefined): number | null =>
  value != null && /^\d{1,9}$/.test(value) ? Number(value) : null;

/** `offset` and `limit` of a limit/offset link; a link that drops `offset` means offset 0. */
export function offsetFromLink(link: unknown): { offset: number; limit: number | null } | null {
  if (typeof link !== 'string' || link.length === 0) return null;
  return {
    offset: nonNegativeInt(queryParam(link, 'offset')) ?? 0,
    limit: nonNegativeInt(queryParam(link, 'limit')),
  };
}

/** The `cursor` of a cursor-paginated link, as the opaque string the upstream wrote. */
export function cursorFromLink(link: unknown): string | null {
  const cursor = queryParam(link, 'cursor');
  return cursor && cursor.length <= 2_000 ? cursor : null;
}
