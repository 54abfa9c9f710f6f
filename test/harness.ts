// The reference upstream on port 0 and the gateway in front of it, on a real HTTP server on
// port 0. gql() posts a GraphQL request with a caller's key; upstreamCalls() reads the
// reference upstream's request log.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createGateway, createLiveServices, createUpstreamClient } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createHttpServer } from '../src/http-server.ts';
import type { LiveServices } from '../src/live/services.ts';
import { loadTracing } from '../src/observability/load-tracing.ts';
import { createLogger } from '../src/observability/operation-log.ts';
import { Readiness } from '../src/observability/readiness.ts';
import type { Dialect } from '../src/reference-upstream/dialect.ts';
import {
  type ReferenceUpstream,
  type ReferenceUpstreamOptions,
  type RequestLogEntry,
  startReferenceUpstream,
} from '../src/reference-upstream/server.ts';
import { attachGraphQLWebSocket } from '../src/websocket.ts';

export interface GqlAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
  body: any;
}

export interface Harness {
  upstream: ReferenceUpstream;
  url: string;
  /** Every line the gateway logged, as written. */
  logs: string[];
  /** The gateway's /ready state. */
  readiness: Readiness;
  live: LiveServices;
  /** ws://… of /graphql. */
  wsUrl: string;
  gql(query: string, variables?: Record<string, unknown>, key?: string | null): Promise<GqlAnswer>;
  post(body: string, headers?: Record<string, string>): Promise<GqlAnswer>;
  /** /api requests the upstream received since the last reset, optionally filtered. */
  upstreamCalls(filter?: Partial<Pick<RequestLogEntry, 'method' | 'path'>>): RequestLogEntry[];
  reset(): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dialect?: Dialect;
  upstream?: Omit<ReferenceUpstreamOptions, 'dialect'>;
  /** Gateway settings, as environment variables. */
  env?: Record<string, string>;
}

export interface GatewayServer {
  url: string;
  logs: string[];
  /** /ready's state, to begin a drain from a test. */
  readiness: Readiness;
  /** Subscriptions and live queries (pollers, slots). */
  live: LiveServices;
  close(): Promise<void>;
}

/** A gateway on a real HTTP server on port 0, in front of `upstreamUrl`. */
export async function startGatewayServer(
  upstreamUrl: string,
  env: Record<string, string> = {},
): Promise<GatewayServer> {
  const config = loadConfig({ UPSTREAM_URL: upstreamUrl, ...env });
  const client = createUpstreamClient(config, upstreamUrl);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const readiness = new Readiness(client);
  const tracing = await loadTracing(config);
  const live = createLiveServices(config, client);
  const gateway = createGateway(config, {
    client,
    // As main.ts does for the embedded upstream: the key GraphiQL opens with (browser test).
    graphiqlDemoKey: env.GATEWAY_GRAPHIQL_DEMO_KEY || null,
    logger: createLogger('info', sink),
    readiness,
    tracing,
    live,
  });
  const server: Server = createHttpServer(gateway, config);
  const websocket = attachGraphQLWebSocket(server, gateway, { maxBodyBytes: config.limits.bodyBytes });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    logs,
    readiness,
    live,
    close: async () => {
      live.closeAll();
      await websocket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
      await tracing?.shutdown();
    },
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const upstream = await startReferenceUpstream({ dialect: options.dialect ?? 'spec', ...options.upstream });
  const gateway = await startGatewayServer(upstream.url, options.env);
  const { url, logs } = gateway;

  async function post(body: string, headers: Record<string, string> = {}): Promise<GqlAnswer> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the test sees the text.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  return {
    upstream,
    url,
    logs,
    readiness: gateway.readiness,
    live: gateway.live,
    wsUrl: url.replace(/^http/, 'ws'),
    post,
    gql: (query, variables = {}, key = 'phx_full') =>
      post(JSON.stringify({ query, variables }), key === null ? {} : { authorization: `Bearer ${key}` }),
    upstreamCalls: (filter = {}) =>
      upstream.requests.filter(
        (r) => (!filter.method || r.method === filter.method) && (!filter.path || r.path === filter.path),
      ),
    reset: () => upstream.reset(),
    close: async () => {
      await gateway.close();
      await upstream.close();
    },
  };
}

/** The global id of a config, as the gateway writes it (for tests that forge or compare ids). */
export const configId = (projectId: string, id: number) =>
  Buffer.from(`DestinationConfig:${projectId}:${id}`).toString('base64');
export const projectGlobalId = (projectId: string) => Buffer.from(`Project:${projectId}`).toString('base64');

export const DIALECTS: Dialect[] = ['spec', 'posthog'];
