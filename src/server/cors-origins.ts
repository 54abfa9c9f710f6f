// Which origins yoga's CORS answers as allowed, from CORS_ORIGINS. A request's Origin is allowed
// only when it is listed (or the list holds `*`), and the answer then names that origin and
// varies by Origin. Any other origin gets no CORS header at all, preflight included: yoga's own
// handling of a list answered an unlisted origin `Access-Control-Allow-Origin: null`, which a page
// whose origin is opaque (a sandboxed frame, a file:// page, a redirect's) sends as `Origin: null`
// and so passed. `null` is never allowed, even when listed.
import type { YogaServerOptions } from 'graphql-yoga';

type CorsOption = NonNullable<YogaServerOptions<object, object>['cors']>;

/** Yoga's `cors` option for CORS_ORIGINS; false (CORS off) when none are given. */
export function corsForOrigins(origins: readonly string[] | null): CorsOption {
  if (!origins) return false;
  const listed = new Set(origins);
  const anyOrigin = listed.has('*');
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (!origin || origin === 'null' || !(anyOrigin || listed.has(origin))) return false;
    // `*` in yoga's list: it answers with the request's own origin and `Vary: Origin`.
    // A page reads the budget left from the RateLimit fields (limits/ratelimit-fields.ts).
    return { origin: ['*'], credentials: false, exposedHeaders: ['RateLimit', 'RateLimit-Policy'] };
  };
}
