// The only file that reads process.env or listens. Without UPSTREAM_URL it starts the embedded
// reference upstream and points the gateway at it, so `npm start` works with no PostHog at hand.
// With WORKERS > 1 this process supervises the workers (workers.ts), each of which runs serve():
// startGateway (gateway.ts), and on SIGTERM or SIGINT its drain.
import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.ts';
import { startGateway, TRACE_FLUSH_MS } from './gateway.ts';
import { setHeapGrowth } from './heap-growth.ts';
import { serveClusterMetrics } from './observability/cluster-metrics.ts';
import { createLogger } from './observability/operation-log.ts';
import { connectRedis } from './shared-state/index.ts';
import { RedisUnavailableError } from './shared-state/redis-unavailable.ts';
import { superviseWorkers } from './workers.ts';

// Mid-2024 PostHog refuses its custom actions (important changes among them) to every scoped key, so
// the demo in the posthog dialect uses the unscoped legacy key.
const demoKeyFor = (dialect: string) => (dialect === 'posthog' ? 'phx_legacy' : 'phx_full');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`gateway: ${error.message}`);
  process.exit(1);
}

/** A Redis that does not answer stops start-up with one line naming REDIS_URL (exit 1). */
function exitIfRedisUnavailable(error: unknown): never {
  if (!(error instanceof RedisUnavailableError)) throw error;
  console.error(`gateway: ${error.message}`);
  process.exit(1);
}

// Before anything under load: the old generation grows at one pace, idle spells or not.
setHeapGrowth(config.heapGrowingPercent, process.execArgv);

const logger = createLogger(config.logLevel);
// Nothing a request does may take the process down; a stray rejection is logged, not fatal.
process.on('unhandledRejection', (reason) =>
  logger.error(
    { error: { message: (reason as Error)?.message, stack: (reason as Error)?.stack } },
    'unhandled rejection',
  ),
);

// Imported only when it is used: a gateway in front of PostHog does not hold its code.
const reference = config.upstreamUrl
  ? null
  : await (await import('./reference-upstream/server.ts')).startReferenceUpstream({
      dialect: config.referenceDialect,
      port: config.referencePort,
    });
const upstreamOrigin = config.upstreamUrl ?? reference!.url;

if (config.workers > 1 && cluster.isPrimary) {
  // Checked here too, once: workers that cannot start would otherwise be replaced forever.
  if (config.redis) await (await connectRedis(config.redis).catch(exitIfRedisUnavailable)).close();
  // Workers are pointed at the upstream this process holds; the demo key goes with the embedded one.
  const demoKey = reference ? demoKeyFor(config.referenceDialect) : '';
  serveClusterMetrics();
  superviseWorkers({
    count: config.workers,
    env: { UPSTREAM_URL: upstreamOrigin, GATEWAY_GRAPHIQL_DEMO_KEY: demoKey },
    logger,
    close: async () => {
      await reference?.close();
    },
  });
} else {
  await serve();
}

async function serve(): Promise<void> {
  const graphiqlDemoKey = reference
    ? demoKeyFor(config.referenceDialect)
    : process.env.GATEWAY_GRAPHIQL_DEMO_KEY || null;
  const gateway = await startGateway(config, {
    upstreamOrigin,
    logger,
    graphiqlDemoKey,
    clusterWorker: cluster.isWorker,
  }).catch(exitIfRedisUnavailable);
  const where = reference
    ? `the embedded reference upstream (${config.referenceDialect} dialect) at ${upstreamOrigin}; demo key ${demoKeyFor(config.referenceDialect)}`
    : upstreamOrigin;
  logger.info(
    { port: gateway.port, upstream: reference ? 'embedded reference' : upstreamOrigin },
    'listening',
  );
  console.log(
    `gateway: GraphQL and GraphiQL at http://localhost:${gateway.port}/graphql, in front of ${where}`,
  );

  /** The gateway's drain (gateway.ts), then the embedded upstream, then the process. */
  async function shutdown(signal: string): Promise<void> {
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    const { spansFlushed } = await gateway.close();
    if (!spansFlushed) {
      logger.warn(
        { waitedMs: TRACE_FLUSH_MS },
        'the trace collector did not take the last spans; they are dropped',
      );
    }
    await reference?.close();
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  }
  // A worker may get a signal twice (from the terminal's process group and from its supervisor):
  // the second must not cut the drain short.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void shutdown(signal);
    });
  }
}
