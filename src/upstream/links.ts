// The upstream's next/previous links are absolute URLs on whatever host it believes it serves
// (behind a proxy, not the one the gateway called). The gateway never requests them: it reads
// the one parameter it needs and builds its own request to the configured origin.

function queryOf(link: unknown): URLSearchParams | null {
  if (typeof link !== 'string' || link.length === 0) return null;
  try {
    // A relative link is read against a placeholder base; only its query matters.
    return new URL(link, 'http://link.invalid').searchParams;
  } catch {
    return null;
  }
}

const nonNegativeInt = (value: string | null | undefined): number | null =>
  value != null && /^\d{1,9}$/.test(value) ? Number(value) : null;

/** `offset` and `limit` of a limit/offset link; a link that drops `offset` means offset 0. */
export function offsetFromLink(link: unknown): { offset: number; limit: number | null } | null {
  const query = queryOf(link);
  if (!query) return null;
  return { offset: nonNegativeInt(query.get('offset')) ?? 0, limit: nonNegativeInt(query.get('limit')) };
}

/** The `cursor` of a cursor-paginated link, as the opaque string the upstream wrote. */
export function cursorFromLink(link: unknown): string | null {
  const cursor = queryOf(link)?.get('cursor');
  return cursor && cursor.length <= 2_000 ? cursor : null;
}
