// The only file that reads process.env or listens. Without UPSTREAM_URL it refuses to start,
// unless DEMO_UPSTREAM=true asks for a demo: then it starts the embedded reference upstream and
// points the gateway at it (`npm start` asks for it, so it works with no PostHog at hand), and its
// first line says so. A production process that lost its UPSTREAM_URL must not serve made-up data.
// With WORKERS > 1 this process supervises the workers (workers.ts), each of which runs serve():
// startGateway (gateway.ts), and on SIGTERM or SIGINT its drain.
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { ConfigError, loadConfig } from './config/index.ts';
import { startDemoUpstream } from './demo-upstream.ts';
import { startGateway, TRACE_FLUSH_MS } from './gateway.ts';
import { setHeapGrowth } from './heap-growth.ts';
import { serveClusterMetrics } from './observability/cluster-metrics.ts';
import { createLogger } from './observability/operation-log.ts';
import type { DemoUpstream } from './server/graphiql-page.ts';
import { connectRedis } from './shared-state/index.ts';
import { RedisUnavailableError } from './shared-state/redis-unavailable.ts';
import { superviseWorkers } from './workers.ts';

// Mid-2024 PostHog refuses its custom actions (important changes among them) to every scoped key, so
// the demo in the posthog dialect uses the unscoped legacy key.
const demoKeyFor = (dialect: string) => (dialect === 'posthog' ? 'phx_legacy' : 'phx_full');
/** How the supervisor tells its workers of the demo (JSON of a DemoUpstream; empty: none). */
const WORKER_DEMO = 'GATEWAY_DEMO_UPSTREAM';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`gateway: ${error.message}`);
  process.exit(1);
}
if (!config.upstreamUrl && !config.demoUpstream) {
  console.error(
    'gateway: UPSTREAM_URL is not set: set it to your PostHog (e.g. UPSTREAM_URL=https://us.posthog.com), or DEMO_UPSTREAM=true for a demo in front of the embedded reference upstream (made-up data, demo keys)',
  );
  process.exit(1);
}
if (!config.upstreamUrl) {
  console.log(
    `gateway: DEMO: in front of the embedded reference upstream (${config.referenceDialect} dialect, made-up data, demo keys), as DEMO_UPSTREAM=true asks; set UPSTREAM_URL to serve your PostHog`,
  );
}

/**
 * What stops start-up with one line and exit 1 instead of a stack: a Redis that does not answer
 * (naming REDIS_URL), a port another process holds (naming PORT).
 */
function exitIfCannotStart(error: unknown): never {
  if (error instanceof RedisUnavailableError) {
    console.error(`gateway: ${error.message}`);
    process.exit(1);
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const why = code === 'EADDRINUSE' ? 'is in use by another process' : 'may not be used by this user';
    console.error(
      `gateway: port ${config.port} on ${config.host} ${why} (${code}): stop what holds it, or set PORT to another port`,
    );
    process.exit(1);
  }
  throw error;
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

const reference = config.upstreamUrl
  ? null
  : await startDemoUpstream(config.referenceDialect, config.referencePort).catch((error: Error) => {
      console.error(`gateway: ${error.message}`);
      process.exit(1);
    });
const upstreamOrigin = config.upstreamUrl ?? reference!.upstream.url;

if (config.workers > 1 && cluster.isPrimary) {
  // Checked here too, once: workers that cannot start would otherwise be replaced forever.
  if (config.redis) await (await connectRedis(config.redis).catch(exitIfCannotStart)).close();
  await portIsFree(config.port, config.host).catch(exitIfCannotStart);
  // Workers are pointed at the upstream this process holds; the demo goes with the embedded one.
  serveClusterMetrics();
  superviseWorkers({
    count: config.workers,
    env: { UPSTREAM_URL: upstreamOrigin, [WORKER_DEMO]: reference ? JSON.stringify(reference.demo) : '' },
    logger,
    close: async () => {
      await reference?.upstream.close();
    },
  });
} else {
  await serve();
}

/** Resolves when `port` can be listened on (and is let go at once); rejects with listen's error. */
function portIsFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

async function serve(): Promise<void> {
  const demo: DemoUpstream | null =
    reference?.demo ?? (process.env[WORKER_DEMO] ? JSON.parse(process.env[WORKER_DEMO]) : null);
  const demoKey = demo ? demoKeyFor(demo.dialect) : null;
  const gateway = await startGateway(config, {
    upstreamOrigin,
    logger,
    graphiqlDemoKey: demoKey,
    demo,
    clusterWorker: cluster.isWorker,
  }).catch(exitIfCannotStart);
  const where = demo
    ? `the embedded reference upstream (${demo.dialect} dialect) at ${upstreamOrigin}; demo key ${demoKey}`
    : upstreamOrigin;
  logger.info(
    { port: gateway.port, upstream: demo ? 'embedded reference (demo)' : upstreamOrigin },
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
    await reference?.upstream.close();
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
