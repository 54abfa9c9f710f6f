// Every setting of the gateway, read from the environment once at start-up and frozen. A bad
// value stops start-up with a message that names the variable; docs/operating.md has the table.
//
// Read by the few parsers below rather than a schema library: zod held 3.4 MB of heap for the
// life of the process to read a dozen variables once, and every MB a process holds at rest is
// multiplied by V8's heap growth under load (npm run bench: idle and peak RSS).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { PersistedManifest } from './persisted-operations/manifest.ts';

export interface Config {
  port: number;
  host: string;
  /** The upstream origin; null means: start the embedded reference upstream. */
  upstreamUrl: string | null;
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
    /** Upstream calls in flight at once, over HTTP/2 or HTTP/1.1. */
    maxInFlight: number;
    /** Connections to the upstream at most; null: as many as maxInFlight needs. */
    maxConnections: number | null;
    /** Offer HTTP/2 to an https:// upstream (ALPN); HTTP/1.1 when it does not take it. */
    http2: boolean;
    /** UPSTREAM_CA_FILE's certificates (PEM), trusted for the upstream beside Node's roots. */
    ca: string | null;
    /** A larger answer is refused as malformed, as soon as it is seen to be larger. */
    maxResponseBytes: number;
  };
  /** One deadline for all the upstream work of a GraphQL request. */
  requestDeadlineMs: number;
  /** What a caller may hold of the HTTP server (http-server.ts). */
  server: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    maxConnections: number;
  };
  limits: {
    depth: number;
    aliases: number;
    tokens: number;
    directives: number;
    cost: number;
    upstreamCalls: number;
    bodyBytes: number;
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
    /** How often a live query is re-run when nothing wakes it. */
    liveQueryPollMs: number;
    /** Subscriptions and live queries open at once, per key and in the process. */
    maxSubscriptionsPerKey: number;
    maxSubscriptions: number;
  };
  persistedOperations: {
    manifest: PersistedManifest | null;
    /** Safelist mode: only the manifest's documents run. */
    only: boolean;
  };
  /**
   * Where processes share state (shared-state/): null keeps everything in this process. The URL
   * may carry a password: it is never logged (redisLabel is what messages show).
   */
  redis: {
    url: string;
    label: string;
    keyPrefix: string;
    /** READY_REQUIRES_REDIS: /ready answers 503 while Redis is lost (else it only degrades /health). */
    requiredForReady: boolean;
  } | null;
  /**
   * Upstream requests per key hash at most, as PostHog counts them (sliding windows of a minute
   * and an hour); 0 turns a window off. Shared across processes through Redis.
   */
  budget: { perMinute: number; perHour: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A value a parser refuses; its message ends up after the variable's name. */
class Refused extends Error {}
const refuse = (message: string): never => {
  throw new Refused(message);
};

type Parse<T> = (text: string) => T;

const integer =
  (min: number, max: number): Parse<number> =>
  (text) => {
    const n = Number(text);
    if (!Number.isInteger(n)) refuse('expected an integer');
    if (n < min || n > max) refuse(`expected an integer from ${min} to ${max}`);
    return n;
  };

const oneOf =
  <T extends string>(...values: T[]): Parse<T> =>
  (text) =>
    values.includes(text as T) ? (text as T) : refuse(`expected one of ${values.join(', ')}`);

const flag: Parse<boolean> = (text) => {
  const value = oneOf('true', 'false', '1', '0')(text);
  return value === 'true' || value === '1';
};

/** A URL of one of these schemes (`http`, `https`), or a refusal saying which were expected. */
const urlOf =
  (...schemes: string[]): Parse<URL> =>
  (text) => {
    const expected = `expected a URL starting ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`;
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      refuse(expected);
    }
    if (!schemes.includes(url!.protocol.slice(0, -1))) refuse(expected);
    return url!;
  };

const httpUrl = urlOf('http', 'https');
const redisUrl = urlOf('redis', 'rediss');

const text: Parse<string> = (value) => value;

/** A Redis URL as messages may show it: no user, no password. */
export const redisLabel = (url: URL) =>
  `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;

const list: Parse<string[]> = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const workers: Parse<number> = (value) =>
  value === 'auto' ? availableParallelism() : integer(1, 256)(value);

/** A PEM file of certificates, read whole at start-up. */
const pemFile: Parse<string> = (path) => {
  let pem = '';
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    refuse(`cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return pem.includes('-----BEGIN CERTIFICATE-----') ? pem : refuse('expected PEM certificates');
};

/** Reads one variable: its parsed value, or `fallback` when unset (a refusal is recorded). */
type Read = <T, F = T>(name: string, parse: Parse<T>, fallback: F) => T | F;

/** The upstream client: timeouts, retries, connections, the largest answer. */
function readUpstream(read: Read) {
  return Object.freeze({
    connectTimeoutMs: read('UPSTREAM_CONNECT_TIMEOUT_MS', integer(1, 600_000), 5_000),
    headersTimeoutMs: read('UPSTREAM_HEADERS_TIMEOUT_MS', integer(1, 600_000), 10_000),
    bodyTimeoutMs: read('UPSTREAM_BODY_TIMEOUT_MS', integer(1, 600_000), 10_000),
    retries: read('UPSTREAM_RETRIES', integer(0, 10), 2),
    // Little's law: calls in flight = calls a second × latency. 256 keep 2,560 calls a second going
    // to an upstream 100 ms away (~640 combined views/s: about what one process serves on its
    // CPU); 32 capped a process at ~80 views/s whatever its CPU (issue 42).
    maxInFlight: read('UPSTREAM_MAX_IN_FLIGHT', integer(1, 10_000), 256),
    maxConnections: read('UPSTREAM_MAX_CONNECTIONS', integer(1, 10_000), null),
    http2: read('UPSTREAM_HTTP2', flag, true),
    ca: read('UPSTREAM_CA_FILE', pemFile, null),
    maxResponseBytes: read(
      'UPSTREAM_MAX_RESPONSE_BYTES',
      integer(1_024, 1024 * 1024 * 1024),
      32 * 1024 * 1024,
    ),
  });
}

/** The HTTP server: how long a request may take to arrive, how many sockets. */
function readServer(read: Read) {
  return Object.freeze({
    requestTimeoutMs: read('REQUEST_TIMEOUT_MS', integer(1_000, 600_000), 30_000),
    headersTimeoutMs: read('HEADERS_TIMEOUT_MS', integer(1_000, 600_000), 10_000),
    maxConnections: read('MAX_CONNECTIONS', integer(1, 1_000_000), 10_000),
  });
}

/** What one operation may be: its shape, cost, upstream calls and body. */
function readLimits(read: Read) {
  return Object.freeze({
    depth: read('MAX_DEPTH', integer(1, 100), 12),
    aliases: read('MAX_ALIASES', integer(1, 1_000), 30),
    tokens: read('MAX_TOKENS', integer(10, 100_000), 2_000),
    directives: read('MAX_DIRECTIVES', integer(1, 1_000), 20),
    cost: read('MAX_COST', integer(1, 10_000_000), 50_000),
    upstreamCalls: read('MAX_UPSTREAM_CALLS', integer(1, 10_000), 50),
    bodyBytes: read('MAX_BODY_BYTES', integer(1_024, 100 * 1024 * 1024), 1024 * 1024),
  });
}

/** Subscriptions and live queries: poll intervals, slots. */
function readLive(read: Read) {
  return Object.freeze({
    activityPollMs: read('ACTIVITY_POLL_MS', integer(100, 3_600_000), 5_000),
    liveQueryPollMs: read('LIVE_QUERY_POLL_MS', integer(100, 3_600_000), 10_000),
    maxSubscriptionsPerKey: read('MAX_SUBSCRIPTIONS_PER_KEY', integer(1, 10_000), 5),
    maxSubscriptions: read('MAX_SUBSCRIPTIONS', integer(1, 1_000_000), 1_000),
  });
}

export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const problems: string[] = [];
  /** A variable's value, or `fallback` when unset; an empty variable counts as unset, as shells and .env files usually mean it. */
  const read: Read = (name, parse, fallback) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    try {
      return parse(value);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      problems.push(`${name}=${JSON.stringify(value)}: ${error.message}`);
      return fallback;
    }
  };

  const metricsToken = read(
    'METRICS_TOKEN',
    (value) => (value.length >= 16 ? value : refuse('use at least 16 characters')),
    null,
  );
  const tracingEndpoint = read('OTEL_EXPORTER_OTLP_ENDPOINT', httpUrl, null);
  const manifestFile = read('PERSISTED_OPERATIONS_FILE', text, null);
  const persistedOnly = read('PERSISTED_OPERATIONS_ONLY', flag, false);
  const redis = read('REDIS_URL', redisUrl, null);
  const readyRequiresRedis = read('READY_REQUIRES_REDIS', flag, false);
  const config: Config = {
    port: read('PORT', integer(0, 65_535), 4000),
    host: read('HOST', text, '0.0.0.0'),
    upstreamUrl: read('UPSTREAM_URL', httpUrl, null)?.origin ?? null,
    referenceDialect: read('REFERENCE_DIALECT', oneOf('spec', 'posthog', 'posthog-2026'), 'spec'),
    referencePort: read('REFERENCE_PORT', integer(0, 65_535), 0),
    graphiql: read('GRAPHIQL', flag, true),
    logLevel: read('LOG_LEVEL', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'info'),
    executor: read('EXECUTOR', oneOf('compiled', 'graphql-js'), 'compiled'),
    upstream: readUpstream(read),
    requestDeadlineMs: read('REQUEST_DEADLINE_MS', integer(1, 600_000), 25_000),
    server: readServer(read),
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
    redis: redis
      ? Object.freeze({
          url: redis.href,
          label: redisLabel(redis),
          keyPrefix: read('REDIS_KEY_PREFIX', text, 'gateway:'),
          requiredForReady: readyRequiresRedis,
        })
      : null,
    budget: Object.freeze({
      perMinute: read('UPSTREAM_BUDGET_PER_MINUTE', integer(0, 1_000_000), 480),
      perHour: read('UPSTREAM_BUDGET_PER_HOUR', integer(0, 10_000_000), 4_800),
    }),
  };
  if (config.server.headersTimeoutMs > config.server.requestTimeoutMs) {
    problems.push(
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  if (readyRequiresRedis && !redis) {
    problems.push('READY_REQUIRES_REDIS=true needs REDIS_URL (there is no Redis to require)');
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  if (manifestFile) {
    let manifest: PersistedManifest;
    try {
      manifest = PersistedManifest.fromFile(manifestFile);
    } catch (error) {
      throw new ConfigError(`invalid configuration: PERSISTED_OPERATIONS_FILE: ${(error as Error).message}`);
    }
    config.persistedOperations = Object.freeze({ manifest, only: persistedOnly });
  } else if (persistedOnly) {
    throw new ConfigError(
      'invalid configuration: PERSISTED_OPERATIONS_ONLY=true needs PERSISTED_OPERATIONS_FILE (else nothing could run)',
    );
  }
  return Object.freeze(config);
}
