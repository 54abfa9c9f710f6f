// Prometheus metrics, one registry per gateway, served at GET /metrics (endpoints.ts).
// Every label value is bounded: operation names fold (operation-names.ts), upstream paths become
// route templates (upstream/posthog/paths.ts), error codes and limit measures are closed lists, and no
// key, header, raw path, id or variable is ever a label.
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { ERROR_CODES } from '../errors/codes.ts';
import type { AttemptObservation, UpstreamCall, UpstreamObserver } from '../upstream/call.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { routeTemplate } from '../upstream/posthog/paths.ts';
import { OperationNames } from './operation-names.ts';
import type { FinishedOperation } from './operation-record.ts';
import { SeriesCounter, SeriesHistogram } from './series.ts';

const KNOWN_CODES = new Set<string>(ERROR_CODES);
const MEASURES = new Set([
  'depth',
  'aliases',
  'directives',
  'tokens',
  'cost',
  'upstreamCalls',
  'bodyBytes',
  'subscriptions',
  'introspectionDepth',
  'introspectionAliases',
  'introspectionBytes',
  'answerBytes',
  'subscriberBacklog',
]);
/** Upstream latency buckets (seconds): PostHog answers in tens to hundreds of milliseconds. */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OPERATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const fold = (value: unknown, known: Set<string>) =>
  typeof value === 'string' && known.has(value) ? value : 'other';

/** success: data and no error; partial: data and errors; error: no data. */
function outcomeOf(operation: FinishedOperation): string {
  if (operation.errors.length === 0) return 'success';
  return operation.hasData ? 'partial' : 'error';
}

/** Whether the upstream answered one of the operation's calls with anything but 401. */
const keyAccepted = (operation: FinishedOperation) =>
  operation.calls?.attempts.some((attempt) => attempt.status !== null && attempt.status !== 401) ?? false;

/** Gauges read from the upstream pool when /metrics is scraped. */
function registerPoolGauges(client: UpstreamClient, registers: Registry[]): void {
  const pool = (read: (stats: ReturnType<UpstreamClient['poolStats']>) => number) =>
    function (this: Gauge) {
      this.set(read(client.poolStats()));
    };
  new Gauge({
    name: 'gateway_upstream_pool_connected_sockets',
    help: 'Open sockets to the upstream.',
    registers,
    collect: pool((s) => s.connected),
  });
  new Gauge({
    name: 'gateway_upstream_pool_queued_requests',
    help: 'Upstream requests waiting for a socket (UPSTREAM_MAX_CONNECTIONS reached).',
    registers,
    collect: pool((s) => s.queued),
  });
  new Gauge({
    name: 'gateway_upstream_pool_running_requests',
    help: 'Upstream requests in flight.',
    registers,
    collect: pool((s) => s.running),
  });
}

export class GatewayMetrics {
  readonly registry = new Registry();
  /** The text /metrics answers: this registry's, or with WORKERS > 1 the whole cluster's. */
  exposition: () => Promise<string> = () => this.registry.metrics();
  private readonly names: OperationNames;
  // The four observed on every operation or attempt are series.ts's, which skip label hashing.
  private readonly operations: SeriesCounter;
  private readonly operationSeconds: SeriesHistogram;
  private readonly errors: Counter;
  private readonly limitsRefused: Counter;
  private readonly upstreamRequests: SeriesCounter;
  private readonly upstreamSeconds: SeriesHistogram;
  private readonly upstreamRetries: Counter;
  private readonly rateLimitWaits: Counter;
  private readonly rateLimitWaitSeconds: Counter;
  private readonly upstreamTimeouts: Counter;
  private readonly deprecatedAnswers: Counter;
  private readonly keptAnswers: Counter;

  constructor(client: UpstreamClient, manifestNames: Iterable<string> = []) {
    this.names = new OperationNames(manifestNames);
    const registers = [this.registry];
    this.operations = new SeriesCounter(
      'gateway_graphql_operations_total',
      'GraphQL operations answered, by operation name, type and outcome (success, partial, error).',
      this.registry,
    );
    this.operationSeconds = new SeriesHistogram(
      'gateway_graphql_operation_duration_seconds',
      'Time from request to answer of GraphQL operations, by operation name, type and outcome.',
      OPERATION_BUCKETS,
      this.registry,
    );
    this.errors = new Counter({
      name: 'gateway_graphql_errors_total',
      help: 'GraphQL errors answered, by extensions.code.',
      labelNames: ['code'],
      registers,
    });
    this.limitsRefused = new Counter({
      name: 'gateway_limits_refused_total',
      help: 'Operations or fields refused by a limit (QUERY_TOO_COMPLEX), by measure.',
      labelNames: ['measure'],
      registers,
    });
    this.upstreamRequests = new SeriesCounter(
      'gateway_upstream_requests_total',
      'Upstream HTTP attempts, by method, route template, status ("failed": no answer) and attempt number.',
      this.registry,
    );
    this.upstreamSeconds = new SeriesHistogram(
      'gateway_upstream_request_duration_seconds',
      'Duration of upstream HTTP attempts, by method, route template and status.',
      UPSTREAM_BUCKETS,
      this.registry,
    );
    this.upstreamRetries = new Counter({
      name: 'gateway_upstream_retries_total',
      help: 'Upstream GETs tried again, by route template and reason (rate_limited, upstream_5xx, transport).',
      labelNames: ['route', 'reason'],
      registers,
    });
    this.rateLimitWaits = new Counter({
      name: 'gateway_upstream_rate_limit_waits_total',
      help: 'Waits for an upstream 429 Retry-After before trying again.',
      registers,
    });
    this.rateLimitWaitSeconds = new Counter({
      name: 'gateway_upstream_rate_limit_wait_seconds_total',
      help: 'Seconds spent waiting for upstream 429 Retry-After.',
      registers,
    });
    this.upstreamTimeouts = new Counter({
      name: 'gateway_upstream_timeouts_total',
      help: 'Upstream attempts that timed out (connect, headers, body or the request deadline), by method and route template.',
      labelNames: ['method', 'route'],
      registers,
    });
    this.deprecatedAnswers = new Counter({
      name: 'gateway_upstream_deprecated_answers_total',
      help: 'Upstream answers that marked their route as going (Deprecation, Sunset or a sunset Link), by method and route template.',
      labelNames: ['method', 'route'],
      registers,
    });
    this.keptAnswers = new Counter({
      name: 'gateway_upstream_kept_answers_total',
      help: 'GETs seen through the kept answers (UPSTREAM_CACHE_TTL_MS), by route template and outcome: hit, joined, followed (another process read it), stale, miss.',
      labelNames: ['route', 'outcome'],
      registers,
    });
    registerPoolGauges(client, registers);
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * gateway_redis_up: 1 while the shared Redis answers, 0 while it is lost (read at each scrape).
   * Only with REDIS_URL. Across the workers of WORKERS > 1, the lowest: 0 if any has lost it.
   */
  watchRedis(redis: { readonly healthy: boolean; readonly slow: boolean; readonly latencyMs: number }): void {
    new Gauge({
      name: 'gateway_redis_up',
      help: 'Whether the shared Redis (REDIS_URL) answers: 1, or 0 while it is lost and each process serves alone.',
      registers: [this.registry],
      aggregator: 'min',
      collect() {
        this.set(redis.healthy ? 1 : 0);
      },
    });
    new Gauge({
      name: 'gateway_redis_latency_seconds',
      help: 'How long the shared Redis takes to answer (its last round trip, or the wait of one unanswered).',
      registers: [this.registry],
      aggregator: 'max',
      collect() {
        this.set(redis.latencyMs / 1000);
      },
    });
    new Gauge({
      name: 'gateway_redis_slow',
      help: 'Whether the shared Redis answers, but in REDIS_SLOW_MS or more: 1, else 0.',
      registers: [this.registry],
      aggregator: 'max',
      collect() {
        this.set(redis.slow ? 1 : 0);
      },
    });
  }

  operationFinished = (operation: FinishedOperation): void => {
    const name = this.names.label(operation.name, keyAccepted(operation));
    // none: refused before execution (a syntax error, a limit, a persisted-operation refusal).
    const type = operation.type ?? 'none';
    const outcome = outcomeOf(operation);
    const key = `${name} ${type} ${outcome}`;
    const labels = () => ({ operation: name, type, outcome });
    this.operations.inc(key, labels);
    this.operationSeconds.observe(key, labels, operation.durationMs / 1000);
    for (const error of operation.errors) {
      const code = fold(error.extensions?.code, KNOWN_CODES);
      this.errors.inc({ code });
      if (code === 'QUERY_TOO_COMPLEX') {
        this.limitsRefused.inc({ measure: fold(error.extensions?.measure, MEASURES) });
      }
    }
  };

  /** Counts every upstream attempt; the same for every caller, so one object serves them all. */
  readonly upstream: UpstreamObserver = {
    attemptStarted: (call: UpstreamCall, attempt: number): AttemptObservation => ({
      finished: ({ status, errorCode, durationMs, deprecation }) => {
        const route = routeTemplate(call.path);
        const statusLabel = status === null ? 'failed' : String(status);
        const key = `${call.method} ${route} ${statusLabel}`;
        this.upstreamRequests.inc(`${key} ${attempt}`, () => ({
          method: call.method,
          route,
          status: statusLabel,
          attempt: String(attempt),
        }));
        this.upstreamSeconds.observe(
          key,
          () => ({ method: call.method, route, status: statusLabel }),
          durationMs / 1000,
        );
        if (errorCode === 'UPSTREAM_TIMEOUT') this.upstreamTimeouts.inc({ method: call.method, route });
        if (deprecation) this.deprecatedAnswers.inc({ method: call.method, route });
      },
    }),
    kept: (call, outcome) => this.keptAnswers.inc({ route: routeTemplate(call.path), outcome }),
    retrying: (call, reason, waitMs) => {
      this.upstreamRetries.inc({ route: routeTemplate(call.path), reason });
      if (reason === 'rate_limited') {
        this.rateLimitWaits.inc();
        this.rateLimitWaitSeconds.inc(waitMs / 1000);
      }
    },
  };
}
