// The only file that reads process.env or listens. Without UPSTREAM_URL it starts the embedded
// reference upstream and points the gateway at it, so `npm start` works with no PostHog at hand.
// With WORKERS > 1 this process supervises the workers (workers.ts), each of which runs serve().
import cluster from 'node:cluster';
import { createGateway, createLiveServices, createUpstreamClient } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createHttpServer } from './http-server.ts';
import { serveClusterMetrics } from './observability/cluster-metrics.ts';
import { loadTracing } from './observability/load-tracing.ts';
import { createLogger } from './observability/operation-log.ts';
import { Readiness } from './observability/readiness.ts';
import { attachGraphQLWebSocket } from './websocket.ts';
import { superviseWorkers } from './workers.ts';

// PostHog refuses its custom actions (important changes among them) to every scoped key, so
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

/**
 * How long shutdown waits for the last spans to be exported. A collector that is down or hangs
 * would otherwise hold the process for as long as the exporter retries (minutes, with a backlog,
 * seen in npm run bench): a deployment expects the process gone soon after SIGTERM.
 */
const TRACE_FLUSH_MS = 2_000;

/** Whether `promise` settles (either way) within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

async function serve(): Promise<void> {
  const graphiqlDemoKey = reference
    ? demoKeyFor(config.referenceDialect)
    : process.env.GATEWAY_GRAPHIQL_DEMO_KEY || null;
  const client = createUpstreamClient(config, upstreamOrigin);
  const readiness = new Readiness(client);
  const tracing = await loadTracing(config);
  const live = createLiveServices(config, client);
  const gateway = createGateway(config, {
    client,
    logger,
    graphiqlDemoKey,
    readiness,
    tracing,
    live,
    clusterWorker: cluster.isWorker,
  });
  const server = createHttpServer(gateway, config);
  const websocket = attachGraphQLWebSocket(server, gateway, { maxBodyBytes: config.limits.bodyBytes });

  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const where = reference
      ? `the embedded reference upstream (${config.referenceDialect} dialect) at ${upstreamOrigin}; demo key ${demoKeyFor(config.referenceDialect)}`
      : upstreamOrigin;
    logger.info({ port, upstream: reference ? 'embedded reference' : upstreamOrigin }, 'listening');
    console.log(`gateway: GraphQL and GraphiQL at http://localhost:${port}/graphql, in front of ${where}`);
  });

  /**
   * Stop accepting, let in-flight requests finish within SHUTDOWN_GRACE_MS (then cut them), and
   * close the upstream pool and the embedded upstream.
   */
  async function shutdown(signal: string): Promise<void> {
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    readiness.startDraining();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Subscriptions and live queries end cleanly (SSE streams complete, sockets close 1001).
    live.closeAll();
    await websocket.close();
    server.closeIdleConnections();
    const cut = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    await closed;
    clearTimeout(cut);
    await client.close();
    if (tracing && !(await settlesWithin(tracing.shutdown(), TRACE_FLUSH_MS))) {
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
