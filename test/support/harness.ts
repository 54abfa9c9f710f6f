// The reference upstream on port 0 and the gateway in front of it, on a real HTTP server on
// port 0. gql() posts a GraphQL request with a caller's key; upstreamCalls() reads the
// reference upstream's request log.
import { Writable } from 'node:stream';
import type { Dialect, RequestLogEntry } from 'posthog-emulator';
import {
  type ReferenceUpstream,
  type ReferenceUpstreamOptions,
  startReferenceUpstream,
} from 'posthog-emulator';
import { loadConfig } from '../../src/config/index.ts';
import { startGateway } from '../../src/gateway.ts';
import type { LiveServices } from '../../src/live/services.ts';
import { createLogger } from '../../src/observability/operation-log.ts';
import type { Readiness } from '../../src/observability/readiness.ts';
import type { DemoUpstream } from '../../src/server/graphiql-page.ts';

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
  /** What the gateway asked the upstream while it started (before the log below begins). */
  startupCalls: RequestLogEntry[];
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

/**
 * A gateway in front of `upstreamUrl`, started as production starts it (gateway.ts), listening on
 * port 0; `close` is production's drain. SHUTDOWN_GRACE_MS is 1 s unless a test sets it: what a
 * test leaves in flight is cut sooner than a deployment's 10 s.
 */
export async function startGatewayServer(
  upstreamUrl: string,
  env: Record<string, string> = {},
  demo: DemoUpstream | null = null,
): Promise<GatewayServer> {
  const config = loadConfig({
    UPSTREAM_URL: upstreamUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SHUTDOWN_GRACE_MS: '1000',
    // The per-key upstream budget (480 a minute by default) is off unless a test sets it: many
    // tests make more calls with one key than PostHog allows a minute.
    UPSTREAM_BUDGET_PER_MINUTE: '0',
    UPSTREAM_BUDGET_PER_HOUR: '0',
    // Its reserve (10% by default) too: tests that set a budget count all of it.
    UPSTREAM_BUDGET_RESERVE_PERCENT: '0',
    // Reading each key's own scopes first (one call per key) is off unless a test sets it: many
    // tests count every upstream call.
    KEY_SCOPES_REFRESH_MS: '0',
    // extensions.cost on every answer is off unless a test sets it: many tests compare whole answers.
    COST_EXTENSIONS: 'false',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await startGateway(config, {
    upstreamOrigin: upstreamUrl,
    logger: createLogger('info', sink),
    // As main.ts does for the embedded upstream: the key GraphiQL opens with (browser test).
    graphiqlDemoKey: env.GATEWAY_GRAPHIQL_DEMO_KEY || null,
    demo,
  });
  return {
    url: gateway.url,
    logs,
    readiness: gateway.readiness,
    live: gateway.live,
    close: async () => {
      await gateway.close();
    },
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const upstream = await startReferenceUpstream({ dialect: options.dialect ?? 'spec', ...options.upstream });
  // With a demo key, GraphiQL's page shows this upstream as main.ts shows the embedded one.
  const demo = options.env?.GATEWAY_GRAPHIQL_DEMO_KEY
    ? { dialect: upstream.dialect, keys: [...upstream.store.keys.values()] }
    : null;
  const gateway = await startGatewayServer(upstream.url, options.env, demo);
  const { url, logs } = gateway;
  // The gateway asks the upstream, without a key, which routes it serves as it starts
  // (gateway.ts): kept apart, so that a test's request log starts with the test.
  const startupCalls = [...upstream.requests];
  upstream.clearRequests();

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
    startupCalls,
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
