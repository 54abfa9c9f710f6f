// The operator's endpoints, answered before GraphQL sees the request and without a key:
// - GET /health: 200 while the process serves; no upstream call. Yoga's own health check answers
//   it first (an empty body); with REDIS_URL set, the body says what the process serves without:
//   `{"status":"ok","degraded":[]}`, or `{"status":"degraded","degraded":["redis"]}` while the
//   shared Redis is lost (readiness.ts).
// - GET /ready: 200 or 503 with a short JSON reason (readiness.ts).
// - GET /metrics: the Prometheus text format; with METRICS_TOKEN set, only for
//   `Authorization: Bearer <METRICS_TOKEN>`.
// Nothing in any of them names the upstream, a key or a caller.
import { timingSafeEqual } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { GatewayMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';

export interface OperatorEndpoints {
  readiness: Readiness;
  metrics: GatewayMetrics | null;
  /** null: /metrics is open (keep it on an internal network). */
  metricsToken: string | null;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

function bearerMatches(header: string | null, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function metricsResponse(request: Request, endpoints: OperatorEndpoints): Promise<Response> {
  const { metrics, metricsToken } = endpoints;
  if (!metrics) return json(404, { error: 'metrics are off' });
  if (metricsToken !== null && !bearerMatches(request.headers.get('authorization'), metricsToken)) {
    return json(
      401,
      { error: 'send Authorization: Bearer <METRICS_TOKEN>' },
      { 'www-authenticate': 'Bearer' },
    );
  }
  let text: string;
  try {
    text = await metrics.exposition();
  } catch {
    return json(503, { error: 'metrics unavailable' });
  }
  return new Response(text, {
    headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' },
  });
}

/** Yoga's /health answer, with what the process serves without (its headers kept: x-request-id). */
function healthResponse(answered: Response, health: Readiness['health']): Response {
  const headers = new Headers(answered.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(health), { status: 200, headers });
}

export function useOperatorEndpoints(endpoints: OperatorEndpoints): Plugin {
  const { readiness } = endpoints;
  return {
    // Yoga's health check ends /health before any plugin's onRequest: its answer is replaced here.
    onResponse({ request, response, setResponse }) {
      if (readiness.redis === null || response.status !== 200 || !request.url.endsWith('/health')) return;
      if (new URL(request.url).pathname !== '/health') return;
      setResponse(healthResponse(response, readiness.health));
    },
    onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const path = url.pathname;
      if (path === '/ready') {
        return endpoints.readiness.check().then((result) =>
          endResponse(
            json(result.ok ? 200 : 503, {
              status: result.ok ? 'ready' : 'not ready',
              reason: result.reason,
            }),
          ),
        );
      } else if (path === '/metrics') {
        return metricsResponse(request, endpoints).then(endResponse);
      }
      return undefined;
    },
  };
}
