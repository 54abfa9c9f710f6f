// The upstream asked without a key, on the client's connections: whether it answers at all
// (readiness), and whether it routes a path.
import { USER_AGENT } from './attempt.ts';
import { type Pool, requestOn } from './undici-pool.ts';

/**
 * Readiness: does the upstream answer at all? One unauthenticated GET of the project list,
 * which a live upstream refuses with 401 at once; any status below 500 within `timeoutMs` counts.
 */
export async function probe(pool: Pool, timeoutMs: number): Promise<{ ok: boolean; reason: string }> {
  try {
    const response = await requestOn(pool, {
      path: '/api/projects/',
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': USER_AGENT },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await response.body.dump();
    return response.statusCode < 500
      ? { ok: true, reason: 'upstream answers' }
      : { ok: false, reason: `upstream answered ${response.statusCode}` };
  } catch (error) {
    const code = (error as { code?: string; name?: string }).code ?? (error as Error).name;
    return { ok: false, reason: `upstream unreachable (${code})` };
  }
}

/**
 * Whether the upstream routes `path` at all, asked without a key: PostHog answers a path it
 * does not route with 404 "Endpoint not found." before any authentication
 * (posthog/api/__init__.py, api_not_found), and one it routes with 401 or 403. Null: unknown.
 */
export async function routes(pool: Pool, path: string, timeoutMs: number): Promise<boolean | null> {
  try {
    const response = await requestOn(pool, {
      path,
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': USER_AGENT },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await startOf(response.body, ROUTE_PROBE_MAX_BYTES);
    if (response.statusCode === 404) return !text.includes('Endpoint not found.');
    return response.statusCode < 500 ? true : null;
  } catch {
    return null;
  }
}

/**
 * PostHog's 404 for a path it does not route is a line of JSON; an upstream that is not PostHog
 * may answer the keyless probe with anything, endless, and is read no further than this.
 */
const ROUTE_PROBE_MAX_BYTES = 16 * 1024;

/** The first `max` bytes of a body as text; the rest is not read (the body is destroyed). */
async function startOf(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) break;
  }
  return Buffer.concat(chunks, size).subarray(0, max).toString('utf8');
}
