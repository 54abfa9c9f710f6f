// A GraphQL answer over GET is the caller's own: it is read with their key, so no shared cache
// (a CDN, a proxy) may keep it or hand it to another caller, and a browser's cache keeps nothing
// either. Every GET of the GraphQL endpoint that is not GraphiQL's page gets
// `Cache-Control: private, no-store`, and `Authorization` beside whatever `Vary` it already has.
import type { Plugin } from 'graphql-yoga';

/** `vary` with `name` added once (case-insensitive), keeping its other values. */
export function withVary(vary: string | null, name: string): string {
  const values = (vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.some((v) => v === '*' || v.toLowerCase() === name.toLowerCase())) return values.join(', ');
  return [...values, name].join(', ');
}

export function usePrivateGetAnswers(graphqlEndpoint: string): Plugin {
  return {
    onResponse({ request, response }) {
      if (request.method !== 'GET') return;
      if (new URL(request.url).pathname !== graphqlEndpoint) return;
      if (response.headers.get('content-type')?.startsWith('text/html')) return;
      response.headers.set('cache-control', 'private, no-store');
      response.headers.set('vary', withVary(response.headers.get('vary'), 'Authorization'));
    },
  };
}
