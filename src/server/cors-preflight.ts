// A browser's CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) while CORS is
// off (no CORS_ORIGINS): yoga answered 405 "GraphQL only supports GET and POST requests.", which
// sends whoever reads it in the devtools after the wrong cause. The answer names CORS_ORIGINS.
//
// 403, not 405: the method is fine (the browser would POST), what is refused is the origin. A
// browser fails every preflight that is not 2xx alike (the page sees its CORS error whatever the
// status), so the status and body are for whoever reads the devtools' network tab or a curl.
import type { Plugin } from 'graphql-yoga';
import { codedError } from '../errors/codes.ts';

const isPreflight = (request: Request) =>
  request.method === 'OPTIONS' &&
  request.headers.has('origin') &&
  request.headers.has('access-control-request-method');

export const corsOff = (origin: string) =>
  codedError(
    'CORS_ORIGIN_NOT_ALLOWED',
    `Cross-origin requests are off, so a browser page on ${origin} cannot call this gateway: list the origins that may in CORS_ORIGINS (e.g. CORS_ORIGINS=${origin}) and restart it.`,
  );

/** Only while CORS is off: with CORS_ORIGINS set, yoga's CORS answers preflights. */
export function useCorsOffPreflight(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      if (!isPreflight(request)) return;
      const origin = request.headers.get('origin')!;
      const body = JSON.stringify({ errors: [corsOff(origin).toJSON()] });
      endResponse(
        new fetchAPI.Response(body, {
          status: 403,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
    },
  };
}
