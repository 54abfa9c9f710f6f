// Every setting of the gateway, read from the environment once at start-up and frozen. A bad
// value stops start-up with a message that names the variable and what it expected (the choices,
// where there are choices): config/parsers.ts reads each kind of value. docs/operating.md has the
// table.

import { PersistedManifest } from '../persisted-operations/manifest.ts';
import { createReader, flag, httpUrl, integer, list, oneOf, refuse, text, workers } from './parsers.ts';
import { readRedis } from './redis.ts';
import { readLimits, readLive, readServer, readSockets, readUpstream } from './sections.ts';

export interface Config {
  port: number;
  host: string;
  /** The upstream origin; null: none given (main.ts then refuses to start unless demoUpstream). */
  upstreamUrl: string | null;
  /**
   * DEMO_UPSTREAM: with no UPSTREAM_URL, start the embedded reference upstream (made-up data, demo
   * keys) instead of refusing to start. `npm start` sets it; UPSTREAM_URL wins over it.
   */
  demoUpstream: boolean;
  referenceDialect: 'spec' | 'posthog' | 'posthog-2026';
  referencePort: number;
  graphiql: boolean;
  logLevel: string;
  /**
   * `compiled` runs what it can through graphql-jit (jit.ts says which documents it leaves to
   * graphql-js); `graphql-js` runs everything on graphql-js: the differential test's reference,
   * and an operator's way out should a compiled answer ever be doubted.
   */
  executor: 'compiled' | 'graphql-js';
  upstream: {
    connectTimeoutMs: number;
    headersTimeoutMs: number;
    bodyTimeoutMs: number;
    retries: number;
    /** MAX_RETRY_AFTER_MS: the longest a 429's Retry-After may pause a key. */
    maxRetryAfterMs: number;
    /** Upstream calls in flight at once, over HTTP/2 or HTTP/1.1. */
    maxInFlight: number;
    /** Of those, the most calls of keys not accepted lately may hold; null: maxInFlight / 8. */
    unverifiedMaxInFlight: number | null;
    /** Connections to the upstream at most; null: as many as maxInFlight needs. */
    maxConnections: number | null;
    /** Offer HTTP/2 to an https:// upstream (ALPN); HTTP/1.1 when it does not take it. */
    http2: boolean;
    /** UPSTREAM_CA_FILE's certificates (PEM), trusted for the upstream beside Node's roots. */
    ca: string | null;
    /** A larger answer is refused as malformed, as soon as it is seen to be larger. */
    maxResponseBytes: number;
    /** UPSTREAM_CACHE_TTL_MS: how long a key's GET answer answers again; 0: none kept. */
    cacheTtlMs: number;
    /** UPSTREAM_CACHE_STALE_MS: how old a kept answer may answer when the upstream cannot. */
    cacheStaleMs: number;
    /** UPSTREAM_CACHE_MAX_BYTES: what kept answers hold at most. */
    cacheMaxBytes: number;
  };
  /** One deadline for all the upstream work of a GraphQL request. */
  requestDeadlineMs: number;
  /** What a caller may hold of the HTTP server (server/http-server.ts). */
  server: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    maxConnections: number;
  };
  /** What a WebSocket may hold: server/websocket-admission.ts. */
  sockets: { idleMs: number; maxPerKey: number; maxPerPeer: number };
  limits: {
    depth: number;
    aliases: number;
    tokens: number;
    directives: number;
    cost: number;
    upstreamCalls: number;
    bodyBytes: number;
    /** The most bytes of JSON one answer may hold (limits/answer-size.ts). */
    answerBytes: number;
    /** Under `__schema` and `__type`: depth, aliases, and the answer's estimated JSON bytes. */
    introspection: { depth: number; aliases: number; bytes: number };
  };
  /** null: CORS off. */
  corsOrigins: string[] | null;
  shutdownGraceMs: number;
  /** Worker processes sharing the port (node:cluster); 1 serves in this process. */
  workers: number;
  /** V8's old-generation growth factor as 1 + percent/100 (heap-growth.ts); 0: V8's own. */
  heapGrowingPercent: number;
  metrics: {
    enabled: boolean;
    /** null: GET /metrics needs no token. */
    token: string | null;
  };
  /** null: tracing is off, and its SDK is never loaded. */
  tracing: { endpoint: string; serviceName: string; scheduleDelayMs: number } | null;
  live: {
    /** How often a subscription's poller reads the activity log. */
    activityPollMs: number;
    /** How often a destinationHealthChanged poller reads the project's destinations. */
    healthPollMs: number;
    /** How often a live query is re-run when nothing wakes it. */
    liveQueryPollMs: number;
    /** Subscriptions and live queries open at once, per key and in the process. */
    maxSubscriptionsPerKey: number;
    maxSubscriptions: number;
    /** How long an event stream's client may take none of the bytes waiting for it before it is let go. */
    stalledReaderMs: number;
    /** The most bytes of a subscription's events its client may leave unread before it is ended. */
    maxBacklogBytes: number;
    /** Keys PostHog has not accepted yet, checked at once before their live work (live/key-check.ts). */
    maxUnverifiedChecks: number;
  };
  persistedOperations: {
    manifest: PersistedManifest | null;
    /** Safelist mode: only the manifest's documents run. */
    only: boolean;
  };
  /**
   * Where processes share state (shared-state/): null keeps everything in this process. The URL
   * may carry a password: it is never logged (`label` is what messages show). config/redis.ts.
   */
  redis: ReturnType<typeof readRedis>;
  /**
   * Upstream requests per key hash at most, as PostHog counts them (sliding windows of a minute
   * and an hour); 0 turns a window off. Shared across processes through Redis. `reservePercent`
   * of each window no call spends (UPSTREAM_BUDGET_RESERVE_PERCENT; upstream/keys/priorities.ts).
   */
  budget: { perMinute: number; perHour: number; reservePercent: number };
  /** COST_EXTENSIONS: each result carries `extensions.cost` (limits/cost-report.ts). */
  costExtensions: boolean;
  /** How long what PostHog said of a key is remembered (upstream/keys/standing.ts). */
  keyStanding: { acceptedTtlMs: number; refusedTtlMs: number };
  /** How long a key's own answer (its scopes, upstream/keys/grants.ts) is kept; 0: never read. */
  keyScopes: { refreshMs: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The persisted operations: PERSISTED_OPERATIONS_FILE read and checked whole, or none. */
function readManifest(file: string | null, only: boolean): Config['persistedOperations'] {
  if (!file) {
    if (only) {
      throw new ConfigError(
        'invalid configuration: PERSISTED_OPERATIONS_ONLY=true needs PERSISTED_OPERATIONS_FILE (else nothing could run)',
      );
    }
    return Object.freeze({ manifest: null, only });
  }
  try {
    return Object.freeze({ manifest: PersistedManifest.fromFile(file), only });
  } catch (error) {
    throw new ConfigError(`invalid configuration: PERSISTED_OPERATIONS_FILE: ${(error as Error).message}`);
  }
}

export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const problems: string[] = [];
  const read = createReader(env, problems);

  const metricsToken = read(
    'METRICS_TOKEN',
    (value) => (value.length >= 16 ? value : refuse('use at least 16 characters')),
    null,
  );
  const tracingEndpoint = read('OTEL_EXPORTER_OTLP_ENDPOINT', httpUrl, null);
  const manifestFile = read('PERSISTED_OPERATIONS_FILE', text, null);
  const persistedOnly = read('PERSISTED_OPERATIONS_ONLY', flag, false);
  const redis = readRedis(read, problems);
  const config: Config = {
    port: read('PORT', integer(0, 65_535), 4000),
    host: read('HOST', text, '0.0.0.0'),
    upstreamUrl: read('UPSTREAM_URL', httpUrl, null)?.origin ?? null,
    demoUpstream: read('DEMO_UPSTREAM', flag, false),
    referenceDialect: read('REFERENCE_DIALECT', oneOf('spec', 'posthog', 'posthog-2026'), 'spec'),
    referencePort: read('REFERENCE_PORT', integer(0, 65_535), 0),
    graphiql: read('GRAPHIQL', flag, true),
    logLevel: read('LOG_LEVEL', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'info'),
    executor: read('EXECUTOR', oneOf('compiled', 'graphql-js'), 'compiled'),
    upstream: readUpstream(read),
    requestDeadlineMs: read('REQUEST_DEADLINE_MS', integer(1, 600_000), 25_000),
    server: readServer(read),
    sockets: readSockets(read),
    limits: readLimits(read),
    corsOrigins: read('CORS_ORIGINS', list, null),
    shutdownGraceMs: read('SHUTDOWN_GRACE_MS', integer(0, 600_000), 10_000),
    workers: read('WORKERS', workers, 1),
    heapGrowingPercent: read('HEAP_GROWING_PERCENT', integer(0, 1_000), 150),
    metrics: Object.freeze({ enabled: read('METRICS', flag, true), token: metricsToken }),
    tracing: tracingEndpoint
      ? Object.freeze({
          endpoint: tracingEndpoint.href,
          serviceName: read('OTEL_SERVICE_NAME', text, 'destinations-graphql-gateway'),
          scheduleDelayMs: read('OTEL_BSP_SCHEDULE_DELAY', integer(1, 600_000), 5_000),
        })
      : null,
    live: readLive(read),
    persistedOperations: Object.freeze({ manifest: null, only: persistedOnly }),
    redis,
    budget: Object.freeze({
      perMinute: read('UPSTREAM_BUDGET_PER_MINUTE', integer(0, 1_000_000), 480),
      perHour: read('UPSTREAM_BUDGET_PER_HOUR', integer(0, 10_000_000), 4_800),
      // Of each window, left for the key owner's own use; pollers stop at twice it (priorities.ts).
      reservePercent: read('UPSTREAM_BUDGET_RESERVE_PERCENT', integer(0, 40), 10),
    }),
    costExtensions: read('COST_EXTENSIONS', flag, true),
    keyStanding: Object.freeze({
      acceptedTtlMs: read('KEY_ACCEPTED_TTL_MS', integer(1_000, 86_400_000), 600_000),
      refusedTtlMs: read('KEY_REFUSED_TTL_MS', integer(0, 3_600_000), 60_000),
    }),
    keyScopes: Object.freeze({
      refreshMs: read('KEY_SCOPES_REFRESH_MS', integer(0, 86_400_000), 300_000),
    }),
  };
  if (config.server.headersTimeoutMs > config.server.requestTimeoutMs) {
    problems.push(
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  config.persistedOperations = readManifest(manifestFile, persistedOnly);
  return Object.freeze(config);
}
