// Every setting of the gateway, read from the environment once at start-up and frozen. A bad
// value stops start-up with a message that names the variable; README.md has the table.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { PersistedManifest } from './operations/persisted-manifest.ts';

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const ENV_SCHEMA = z.object({
  PORT: integer(0, 65_535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  UPSTREAM_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => new URL(u).origin)
    .optional(),
  REFERENCE_DIALECT: z.enum(['spec', 'posthog']).default('spec'),
  REFERENCE_PORT: integer(0, 65_535).default(0),
  GRAPHIQL: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPSTREAM_CONNECT_TIMEOUT_MS: integer(1, 600_000).default(5_000),
  UPSTREAM_HEADERS_TIMEOUT_MS: integer(1, 600_000).default(10_000),
  UPSTREAM_BODY_TIMEOUT_MS: integer(1, 600_000).default(10_000),
  REQUEST_DEADLINE_MS: integer(1, 600_000).default(25_000),
  UPSTREAM_RETRIES: integer(0, 10).default(2),
  UPSTREAM_MAX_CONNECTIONS: integer(1, 1_000).default(32),
  MAX_DEPTH: integer(1, 100).default(12),
  MAX_ALIASES: integer(1, 1_000).default(30),
  MAX_TOKENS: integer(10, 100_000).default(2_000),
  MAX_DIRECTIVES: integer(1, 1_000).default(20),
  MAX_COST: integer(1, 10_000_000).default(50_000),
  MAX_UPSTREAM_CALLS: integer(1, 10_000).default(50),
  MAX_BODY_BYTES: integer(1_024, 100 * 1024 * 1024).default(1024 * 1024),
  CORS_ORIGINS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .optional(),
  SHUTDOWN_GRACE_MS: integer(0, 600_000).default(10_000),
  METRICS: flag.default(true),
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('destinations-graphql-gateway'),
  OTEL_BSP_SCHEDULE_DELAY: integer(1, 600_000).default(5_000),
  PERSISTED_OPERATIONS_FILE: z.string().min(1).optional(),
  PERSISTED_OPERATIONS_ONLY: flag.default(false),
  ACTIVITY_POLL_MS: integer(100, 3_600_000).default(5_000),
  LIVE_QUERY_POLL_MS: integer(100, 3_600_000).default(10_000),
  MAX_SUBSCRIPTIONS_PER_KEY: integer(1, 10_000).default(5),
  MAX_SUBSCRIPTIONS: integer(1, 1_000_000).default(1_000),
  WORKERS: z
    .union([z.literal('auto'), integer(1, 256)])
    .default(1)
    .transform((n) => (n === 'auto' ? availableParallelism() : n)),
});

export interface Config {
  port: number;
  host: string;
  /** The upstream origin; null means: start the embedded reference upstream. */
  upstreamUrl: string | null;
  referenceDialect: 'spec' | 'posthog';
  referencePort: number;
  graphiql: boolean;
  logLevel: string;
  upstream: {
    connectTimeoutMs: number;
    headersTimeoutMs: number;
    bodyTimeoutMs: number;
    retries: number;
    maxConnections: number;
  };
  /** One deadline for all the upstream work of a GraphQL request. */
  requestDeadlineMs: number;
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
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  // An empty variable counts as unset, as shells and .env files usually mean it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ENV_SCHEMA.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(present[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  let manifest: PersistedManifest | null = null;
  if (e.PERSISTED_OPERATIONS_FILE) {
    try {
      manifest = PersistedManifest.fromFile(e.PERSISTED_OPERATIONS_FILE);
    } catch (error) {
      throw new ConfigError(`invalid configuration: PERSISTED_OPERATIONS_FILE: ${(error as Error).message}`);
    }
  } else if (e.PERSISTED_OPERATIONS_ONLY) {
    throw new ConfigError(
      'invalid configuration: PERSISTED_OPERATIONS_ONLY=true needs PERSISTED_OPERATIONS_FILE (else nothing could run)',
    );
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL ?? null,
    referenceDialect: e.REFERENCE_DIALECT,
    referencePort: e.REFERENCE_PORT,
    graphiql: e.GRAPHIQL,
    logLevel: e.LOG_LEVEL,
    upstream: Object.freeze({
      connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
      headersTimeoutMs: e.UPSTREAM_HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: e.UPSTREAM_BODY_TIMEOUT_MS,
      retries: e.UPSTREAM_RETRIES,
      maxConnections: e.UPSTREAM_MAX_CONNECTIONS,
    }),
    requestDeadlineMs: e.REQUEST_DEADLINE_MS,
    limits: Object.freeze({
      depth: e.MAX_DEPTH,
      aliases: e.MAX_ALIASES,
      tokens: e.MAX_TOKENS,
      directives: e.MAX_DIRECTIVES,
      cost: e.MAX_COST,
      upstreamCalls: e.MAX_UPSTREAM_CALLS,
      bodyBytes: e.MAX_BODY_BYTES,
    }),
    corsOrigins: e.CORS_ORIGINS ?? null,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    workers: e.WORKERS,
    metrics: Object.freeze({ enabled: e.METRICS, token: e.METRICS_TOKEN ?? null }),
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? Object.freeze({
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
          serviceName: e.OTEL_SERVICE_NAME,
          scheduleDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
        })
      : null,
    live: Object.freeze({
      activityPollMs: e.ACTIVITY_POLL_MS,
      liveQueryPollMs: e.LIVE_QUERY_POLL_MS,
      maxSubscriptionsPerKey: e.MAX_SUBSCRIPTIONS_PER_KEY,
      maxSubscriptions: e.MAX_SUBSCRIPTIONS,
    }),
    persistedOperations: Object.freeze({ manifest, only: e.PERSISTED_OPERATIONS_ONLY }),
  });
}
