// What operating the gateway hangs on each operation, wired from the config: the log line (with
// masked errors' detail), metrics and the trace, and what observes each upstream attempt.
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { LiveServices } from '../live/services.ts';
import type { UpstreamObserver } from '../upstream/call.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { logRepeatedIdsTo } from '../upstream/wire/repeated-ids-log.ts';
import { registerBudgetMetrics } from './budget-metrics.ts';
import { clusterMetricsFor } from './cluster-metrics.ts';
import { GatewayMetrics } from './metrics.ts';
import { createLogger, logOperation, type MaskedErrors } from './operation-log.ts';
import type { OperationListener } from './operation-record.ts';
import type { Readiness, SharedDependency } from './readiness.ts';
import type { Tracing } from './tracing.ts';
import { bothObservers } from './upstream-observers.ts';

export interface ObservabilityDeps {
  client: UpstreamClient;
  logger?: Logger;
  tracing?: Tracing | null;
  clusterWorker?: boolean;
  /** Whose shared Redis (REDIS_URL) the log and metrics report on. */
  readiness?: Readiness;
  /** Whose pollers' intervals the metrics report. */
  live?: LiveServices;
}

export interface Observability {
  metrics: GatewayMetrics | null;
  /** Told of every finished operation, in order: the log first. */
  listeners: OperationListener[];
  /** What sees one request's upstream attempts; undefined when metrics and traces are off. */
  observe: ((request: Request, requestId: string) => UpstreamObserver | undefined) | undefined;
}

export function observabilityFor(
  config: Readonly<Config>,
  deps: ObservabilityDeps,
  masked: MaskedErrors,
): Observability {
  const logger = deps.logger ?? createLogger(config.logLevel);
  logRepeatedIdsTo(logger);
  const manifestNames = config.persistedOperations.manifest?.operationNames;
  const metrics = config.metrics.enabled ? new GatewayMetrics(deps.client, manifestNames) : null;
  if (metrics && deps.clusterWorker) metrics.exposition = clusterMetricsFor(metrics.registry);
  if (metrics) {
    const paced = registerBudgetMetrics(config.budget, metrics.registry, () =>
      deps.client.budgetFewestLeft(),
    );
    if (deps.live) deps.live.pace.onPaced = paced;
  }
  const redis = deps.readiness?.redis ?? null;
  if (redis) reportRedis(redis, logger, metrics);
  const tracing = deps.tracing ?? null;
  const listeners: OperationListener[] = [logOperation(logger, masked)];
  if (metrics) listeners.push(metrics.operationFinished);
  if (tracing) listeners.push(tracing.operationFinished);
  const observe =
    metrics || tracing
      ? (request: Request, requestId: string) =>
          bothObservers(metrics?.upstream, tracing?.upstreamObserver(request, requestId))
      : undefined;
  return { metrics, listeners, observe };
}

/** One log line per transition of the shared Redis (lost, back), and gateway_redis_up. */
function reportRedis(redis: SharedDependency, logger: Logger, metrics: GatewayMetrics | null): void {
  metrics?.watchRedis(redis);
  redis.onHealthChange((healthy) => {
    if (healthy) {
      logger.info({ redis: 'up' }, 'Redis answers again: shared state is shared again');
    } else {
      const ready = redis.requiredForReady ? '/ready answers 503 (READY_REQUIRES_REDIS)' : '/ready stays 200';
      logger.warn(
        { redis: 'down', reason: redis.reason },
        `Redis lost: this process serves alone until it is back (docs/operating.md); /health says degraded, ${ready}`,
      );
    }
  });
}
