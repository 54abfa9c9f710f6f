// startGateway(config) → the running gateway: the upstream client, tracing, live services, the
// yoga app, the HTTP server with the WebSocket transport on it, listening; and `close`, the one
// shutdown order. main.ts runs it as the process; the tests run it the same way.
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createGateway } from './app.ts';
import type { Config } from './config/index.ts';
import { CURRENT_PROJECT } from './core/ids.ts';
import { LiveServices } from './live/services.ts';
import { UpstreamFeatures } from './loaders/upstream-features.ts';
import { loadTracing } from './observability/load-tracing.ts';
import { createLogger } from './observability/operation-log.ts';
import { Readiness } from './observability/readiness.ts';
import type { DemoUpstream } from './server/graphiql-page.ts';
import { createHttpServer } from './server/http-server.ts';
import { gatewayListener } from './server/sse-door.ts';
import { closeTakenConnections } from './server/taken-connection.ts';
import { attachGraphQLWebSocket } from './server/websocket.ts';
import { connectSharedState, liveSharesOf, type SharedState, shareLiveWork } from './shared-state/index.ts';
import { RedisShelf } from './shared-state/redis-shelf.ts';
import { SharedKeyGrants } from './shared-state/shared-grants.ts';
import { SharedKeyStanding } from './shared-state/shared-standing.ts';
import { UpstreamClient } from './upstream/client.ts';
import { MemoryShelf } from './upstream/kept/memory-shelf.ts';
import type { Shelf } from './upstream/kept/shelf.ts';
import { KeyBudget } from './upstream/keys/budget.ts';
import { type KeyGrants, KeyGrantsHere } from './upstream/keys/grants.ts';
import { KeyStandingHere, type RememberedStandings } from './upstream/keys/standing.ts';
import { PATHS } from './upstream/posthog/paths.ts';

export interface GatewayOptions {
  /** The REST upstream's origin: config.upstreamUrl, or the embedded reference upstream's. */
  upstreamOrigin: string;
  /** Where the operation log goes; pino on stdout at config.logLevel when not given. */
  logger?: Logger;
  /** Prefilled in GraphiQL's headers; only ever set for the embedded reference upstream. */
  graphiqlDemoKey?: string | null;
  /** The embedded reference upstream's dialect and demo keys, for GraphiQL's page; null otherwise. */
  demo?: DemoUpstream | null;
  /** A worker of WORKERS > 1: /metrics answers for the whole cluster. */
  clusterWorker?: boolean;
}

export interface RunningGateway {
  /** http://…/graphql, where it listens. */
  url: string;
  port: number;
  /** /ready's state. */
  readiness: Readiness;
  /** Subscriptions and live queries (pollers, slots). */
  live: LiveServices;
  /**
   * Drains and stops: /ready fails, no new connection is taken, live work ends cleanly, requests
   * in flight get SHUTDOWN_GRACE_MS (then are cut), then the upstream pool closes and the last
   * spans are flushed (for at most TRACE_FLUSH_MS). Resolves with whether the spans went out.
   */
  close(): Promise<{ spansFlushed: boolean }>;
}

/**
 * How long shutdown waits for the last spans to be exported. A collector that is down or hangs
 * would otherwise hold the process for as long as the exporter retries (minutes, with a backlog,
 * seen in npm run bench): a deployment expects the process gone soon after SIGTERM.
 */
export const TRACE_FLUSH_MS = 2_000;

/**
 * The pooled client of the upstream at `origin`, with the config's timeouts, retries and limits,
 * and each key's upstream budget (in this process until shareLiveWork shares it).
 */
export const createUpstreamClient = (
  config: Readonly<Config>,
  origin: string,
  budget?: KeyBudget,
  standing: RememberedStandings = new KeyStandingHere(config.keyStanding),
  shelf?: Shelf,
) =>
  new UpstreamClient({
    origin,
    ...config.upstream,
    budget: budget ?? new KeyBudget(config.budget),
    standing,
    shelf,
  });

/** Kept answers in Redis when there is one (and a cache), so every replica shares them. */
function keptAnswersShelf(config: Readonly<Config>, shared: SharedState | null): Shelf | undefined {
  const { cacheTtlMs, cacheStaleMs, cacheMaxBytes } = config.upstream;
  if (!shared || cacheTtlMs === 0) return undefined;
  const keepMs = Math.max(cacheTtlMs, cacheStaleMs);
  return new RedisShelf(shared.redis, new MemoryShelf(cacheMaxBytes), { keepMs, maxBytes: cacheMaxBytes });
}

/**
 * Each key's own answer (its scopes), kept KEY_SCOPES_REFRESH_MS and shared through Redis; null
 * when the setting is 0, or when the upstream, asked without a key, does not route the read.
 */
async function readKeyGrants(
  config: Readonly<Config>,
  client: UpstreamClient,
  features: UpstreamFeatures,
  shared: Awaited<ReturnType<typeof connectSharedState>>,
): Promise<KeyGrants | null> {
  const { refreshMs } = config.keyScopes;
  if (refreshMs === 0) return null;
  features.personalKeySelf = (await client.routes(PATHS.personalApiKeyCurrent(), 1_000)) ?? undefined;
  const here = new KeyGrantsHere(refreshMs);
  return shared ? new SharedKeyGrants(shared.redis, here) : here;
}

/** The upstream client of a process, with what it shares through Redis when there is one. */
function upstreamClientOf(config: Readonly<Config>, options: GatewayOptions, shared: SharedState | null) {
  // Workers without a Redis to count together each keep to their share of a key's budget.
  const budget = new KeyBudget(config.budget, options.clusterWorker && !config.redis ? config.workers : 1);
  // What PostHog said of each key lately: shared through Redis when there is one.
  const standingHere = new KeyStandingHere(config.keyStanding);
  const standing = shared ? new SharedKeyStanding(shared.redis, standingHere) : standingHere;
  const shelf = keptAnswersShelf(config, shared);
  return { client: createUpstreamClient(config, options.upstreamOrigin, budget, standing, shelf), budget };
}

export async function startGateway(
  config: Readonly<Config>,
  options: GatewayOptions,
): Promise<RunningGateway> {
  // First, so that a Redis that does not answer stops start-up before anything listens.
  const shared = await connectSharedState(config.redis, config.live.maxSubscriptionsPerKey);
  const { client, budget } = upstreamClientOf(config, options, shared);
  const readiness = new Readiness(client, shared?.redis ?? null);
  const tracing = await loadTracing(config);
  const live = new LiveServices(
    client,
    { ...config.live, requestDeadlineMs: config.requestDeadlineMs },
    liveSharesOf(shared, config.live.maxSubscriptionsPerKey),
  );
  await shareLiveWork(shared, live.wake, budget);
  // What the upstream routes, learnt without a key while the gateway starts (the estimator prices
  // a page of items' activity as one read only where it may be: loaders/activity/heads.ts).
  // Awaited (a second at most), so that it is done before the first request, and a test's
  // request log starts after it.
  const upstreamFeatures = new UpstreamFeatures();
  const routed = await client.routes(PATHS.advancedActivityLogs(CURRENT_PROJECT), 1_000);
  upstreamFeatures.advancedActivityLogs ??= routed ?? undefined;
  const keyGrants = await readKeyGrants(config, client, upstreamFeatures, shared);
  const gateway = createGateway(config, {
    client,
    upstreamFeatures,
    keyGrants,
    logger: options.logger ?? createLogger(config.logLevel),
    graphiqlDemoKey: options.graphiqlDemoKey ?? null,
    graphiqlUpstream: { url: options.upstreamOrigin, demo: options.demo ?? null },
    readiness,
    tracing,
    live,
    clusterWorker: options.clusterWorker ?? false,
    sharedApq: shared?.apq ?? null,
  });
  const door = { maxBodyBytes: config.limits.bodyBytes, stalledReaderMs: config.live.stalledReaderMs };
  const server = createHttpServer(gatewayListener(gateway, door), config);
  const websocket = attachGraphQLWebSocket(server, gateway, { ...door, sockets: config.sockets });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  let closing: Promise<{ spansFlushed: boolean }> | undefined;
  async function drain(): Promise<{ spansFlushed: boolean }> {
    readiness.startDraining();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Subscriptions and live queries end cleanly (SSE streams complete, sockets close 1001).
    live.closeAll();
    await websocket.close();
    server.closeIdleConnections();
    const cut = setTimeout(() => {
      // SSE subscribers' connections are no longer node's to close (server/taken-connection.ts).
      closeTakenConnections(server);
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    await closed;
    clearTimeout(cut);
    await client.close();
    await shared?.close();
    const spansFlushed = tracing ? await settlesWithin(tracing.shutdown(), TRACE_FLUSH_MS) : true;
    return { spansFlushed };
  }

  return {
    url: `http://${host}:${port}/graphql`,
    port,
    readiness,
    live,
    close: () => (closing ??= drain()),
  };
}

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
