// The settings of config/index.ts that come in groups, one reader per group (each frozen): the upstream
// client, the HTTP server, an operation's limits, live work.
import { flag, integer, pemFile, type Read } from './parsers.ts';

/** The upstream client: timeouts, retries, connections, the largest answer. */
export function readUpstream(read: Read) {
  return Object.freeze({
    connectTimeoutMs: read('UPSTREAM_CONNECT_TIMEOUT_MS', integer(1, 600_000), 5_000),
    headersTimeoutMs: read('UPSTREAM_HEADERS_TIMEOUT_MS', integer(1, 600_000), 10_000),
    bodyTimeoutMs: read('UPSTREAM_BODY_TIMEOUT_MS', integer(1, 600_000), 10_000),
    retries: read('UPSTREAM_RETRIES', integer(0, 10), 2),
    // The longest a 429's Retry-After may pause a key (upstream/retry-after.ts).
    maxRetryAfterMs: read('MAX_RETRY_AFTER_MS', integer(1_000, 86_400_000), 300_000),
    // Little's law: calls in flight = calls a second × latency. Enough to keep one process's CPU
    // busy in front of a hosted PostHog's latency; fewer cap throughput below what the CPU serves
    // (docs/performance.md, "What each setting changes").
    maxInFlight: read('UPSTREAM_MAX_IN_FLIGHT', integer(1, 10_000), 256),
    // Of those, what calls of keys the upstream has not accepted may hold (upstream/keys/unverified-share.ts);
    // null: an eighth.
    unverifiedMaxInFlight: read('UNVERIFIED_MAX_IN_FLIGHT', integer(1, 10_000), null),
    maxConnections: read('UPSTREAM_MAX_CONNECTIONS', integer(1, 10_000), null),
    http2: read('UPSTREAM_HTTP2', flag, true),
    ca: read('UPSTREAM_CA_FILE', pemFile, null),
    maxResponseBytes: read(
      'UPSTREAM_MAX_RESPONSE_BYTES',
      integer(1_024, 1024 * 1024 * 1024),
      32 * 1024 * 1024,
    ),
    // GET answers kept per key (upstream/kept/answers.ts); 0: none kept.
    cacheTtlMs: read('UPSTREAM_CACHE_TTL_MS', integer(0, 3_600_000), 0),
    cacheStaleMs: read('UPSTREAM_CACHE_STALE_MS', integer(0, 86_400_000), 300_000),
    cacheMaxBytes: read(
      'UPSTREAM_CACHE_MAX_BYTES',
      integer(1_024, 16 * 1024 * 1024 * 1024),
      64 * 1024 * 1024,
    ),
  });
}

/** The HTTP server: how long a request may take to arrive, how many sockets. */
export function readServer(read: Read) {
  return Object.freeze({
    requestTimeoutMs: read('REQUEST_TIMEOUT_MS', integer(1_000, 600_000), 30_000),
    headersTimeoutMs: read('HEADERS_TIMEOUT_MS', integer(1_000, 600_000), 10_000),
    maxConnections: read('MAX_CONNECTIONS', integer(1, 1_000_000), 10_000),
  });
}

/** What one operation may be: its shape, cost, upstream calls and body. */
export function readLimits(read: Read) {
  return Object.freeze({
    depth: read('MAX_DEPTH', integer(1, 100), 12),
    aliases: read('MAX_ALIASES', integer(1, 1_000), 30),
    tokens: read('MAX_TOKENS', integer(10, 100_000), 2_000),
    directives: read('MAX_DIRECTIVES', integer(1, 1_000), 20),
    cost: read('MAX_COST', integer(1, 10_000_000), 50_000),
    upstreamCalls: read('MAX_UPSTREAM_CALLS', integer(1, 10_000), 50),
    bodyBytes: read('MAX_BODY_BYTES', integer(1_024, 100 * 1024 * 1024), 1024 * 1024),
    // Twice the largest page of hog functions PostHog answers with their code.
    answerBytes: read('MAX_ANSWER_BYTES', integer(1_024, 1024 * 1024 * 1024), 16 * 1024 * 1024),
    introspection: readIntrospectionLimits(read),
  });
}

/**
 * What the introspection under `__schema` and `__type` may be. The standard introspection query
 * (graphql-js's getIntrospectionQuery, which GraphiQL, Apollo's tools, Relay's and
 * graphql-codegen send) is 15 levels deep, has no alias, and answers under 200 KB here.
 */
function readIntrospectionLimits(read: Read) {
  return Object.freeze({
    depth: read('MAX_INTROSPECTION_DEPTH', integer(1, 100), 20),
    aliases: read('MAX_INTROSPECTION_ALIASES', integer(0, 1_000), 10),
    // About three times the standard query's answer (under 200 KB): room for the schema to grow.
    bytes: read('MAX_INTROSPECTION_BYTES', integer(1_024, 100 * 1024 * 1024), 512 * 1024),
  });
}

/** Subscriptions and live queries: poll intervals, slots. */
export function readLive(read: Read) {
  return Object.freeze({
    activityPollMs: read('ACTIVITY_POLL_MS', integer(100, 3_600_000), 5_000),
    healthPollMs: read('DESTINATION_HEALTH_POLL_MS', integer(100, 3_600_000), 30_000),
    liveQueryPollMs: read('LIVE_QUERY_POLL_MS', integer(100, 3_600_000), 10_000),
    maxSubscriptionsPerKey: read('MAX_SUBSCRIPTIONS_PER_KEY', integer(1, 10_000), 5),
    // As many idle subscriptions as fit, beside the gateway and its queries, in the memory limit
    // of deploy/kubernetes.yaml, leaving MAX_CONNECTIONS room for queries (docs/performance.md).
    maxSubscriptions: read('MAX_SUBSCRIPTIONS', integer(1, 1_000_000), 8_000),
    // A minute: five of the streams' 12 s pings. Slow is not stalled: a write the kernel is still
    // taking counts as activity (server/sse-writer.ts).
    stalledReaderMs: read('STALLED_READER_MS', integer(1_000, 3_600_000), 60_000),
    // 1/512 of deploy/'s 512 MiB memory limit: a subscription's unread events (about a KB each)
    // past it end the subscription (live/subscriber-backlog.ts).
    maxBacklogBytes: read('MAX_SUBSCRIBER_BACKLOG_BYTES', integer(1_024, 1024 * 1024 * 1024), 1024 * 1024),
    maxUnverifiedChecks: read('MAX_UNVERIFIED_CHECKS', integer(1, 100_000), 32),
  });
}

/** WebSockets: how long one may idle, how many one key and one peer address may hold. */
export function readSockets(read: Read) {
  return Object.freeze({
    idleMs: read('WS_IDLE_TIMEOUT_MS', integer(1_000, 3_600_000), 10_000),
    maxPerKey: read('MAX_SOCKETS_PER_KEY', integer(1, 100_000), 20),
    // Behind a proxy that hides its clients' addresses every socket is the proxy's: raise it there.
    maxPerPeer: read('MAX_SOCKETS_PER_PEER', integer(1, 1_000_000), 1_000),
  });
}
