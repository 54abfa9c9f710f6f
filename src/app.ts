// createGateway(config, deps) → the yoga instance: its options and plugins, in order. No side
// effects and no listening: gateway.ts serves it (for main.ts and the tests alike).
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { DocumentNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import { type ContextDeps, createContext, type GatewayContext, type NodeServerContext } from './context.ts';
import { BoundedCache, MAX_CACHED_TEXT, stringBytes } from './core/bounded-cache.ts';
import { hashKey } from './core/caller-key.ts';
import { createMaskError, useStableErrorCodes } from './errors/masking.ts';
import { usePartialErrors } from './errors/partial-errors.ts';
import { useJit } from './jit.ts';
import { useAnswerSizeLimit } from './limits/answer-size.ts';
import { CostReport } from './limits/cost-report.ts';
import { useLimits } from './limits/index.ts';
import { useIntrospectionCache } from './limits/introspection-cache.ts';
import { useKeyRefusal } from './limits/keyless.ts';
import { usePrivateGetAnswers } from './limits/private-answers.ts';
import { useLiveQueries } from './live/live-queries.ts';
import type { LiveServices } from './live/services.ts';
import { SharedLiveWork, useSharedLiveWork } from './live/shared-live-work.ts';
import { keptAcrossRequests } from './loaders/index.ts';
import type { UpstreamFeatures } from './loaders/upstream-features.ts';
import { useOperatorEndpoints } from './observability/endpoints.ts';
import type { MaskedErrors } from './observability/operation-log.ts';
import { useOperationRecords } from './observability/operation-record.ts';
import { Readiness } from './observability/readiness.ts';
import { useRequestId } from './observability/request-id.ts';
import type { Tracing } from './observability/tracing.ts';
import { observabilityFor } from './observability/wiring.ts';
import { usePersistedOperations } from './persisted-operations/plugin.ts';
import { estimatorFor } from './schema/cost/estimate.ts';
import { schema } from './schema/index.ts';
import { corsForOrigins } from './server/cors-origins.ts';
import { useCorsOffPreflight } from './server/cors-preflight.ts';
import { EXAMPLE_QUERY } from './server/example-query.ts';
import { type UpstreamShown, useGraphiQLPage } from './server/graphiql-page.ts';
import { type RelayContext, useRelayedResults } from './server/relayed-results.ts';
import { useSseWriter } from './server/sse-writer.ts';
import { useStreamAccept } from './server/stream-accept.ts';
import type { SharedApqStore } from './shared-state/apq-store.ts';
import type { UpstreamClient } from './upstream/client.ts';
import type { KeyGrants } from './upstream/keys/grants.ts';

export interface GatewayDeps {
  client: UpstreamClient;
  /** Prefilled in GraphiQL's headers; only ever set for the embedded reference upstream. */
  graphiqlDemoKey?: string | null;
  /** What GraphiQL's page says is behind the gateway. */
  graphiqlUpstream?: UpstreamShown;
  /** Where the operation log goes; pino on stdout at config.logLevel when not given. */
  logger?: Logger;
  /** /ready's state; main.ts keeps it to say when shutdown begins. A new one when not given. */
  readiness?: Readiness;
  /** Traces; null or absent: off (load-tracing.ts makes one when the endpoint is set). */
  tracing?: Tracing | null;
  /** Subscriptions and live queries; startGateway keeps it to end them on shutdown. */
  live: LiveServices;
  /** A worker of WORKERS > 1: /metrics answers for the whole cluster (cluster-metrics.ts). */
  clusterWorker?: boolean;
  /** What the gateway has learnt of its upstream's routes (gateway.ts asks at start-up). */
  upstreamFeatures?: UpstreamFeatures;
  /** What each key may do, read from PostHog once per key (upstream/keys/grants.ts); none: not read. */
  keyGrants?: KeyGrants | null;
  /** APQ registrations shared through Redis (REDIS_URL). */
  sharedApq?: SharedApqStore | null;
}

/**
 * Parsed documents by text. A DocumentNode holds several times its text (a node per token and
 * the source): counted as 8× the text.
 */
const documentCache = () =>
  new BoundedCache<DocumentNode>(
    { maxEntries: 1_000, maxBytes: 64 * 1024 * 1024, maxItemBytes: (1 + 8) * 2 * MAX_CACHED_TEXT },
    (document) => 8 * stringBytes(document.loc?.source.body ?? ''),
  );
/** Parse errors by text: the error is small, the text is what is held. */
const parseErrorCache = () =>
  new BoundedCache<unknown>({
    maxEntries: 1_000,
    maxBytes: 16 * 1024 * 1024,
    maxItemBytes: 2 * MAX_CACHED_TEXT,
  });

export function createGateway(config: Readonly<Config>, deps: GatewayDeps) {
  // A masked error's detail goes to the log only (with its request id), never to the caller.
  const masked: MaskedErrors = new WeakMap();
  const maskError = createMaskError((error, maskedError) => masked.set(maskedError, error), schema);
  const { metrics, listeners, observe } = observabilityFor(config, deps, masked);
  const { live } = deps;
  const kept = keptAcrossRequests(deps.upstreamFeatures, deps.keyGrants ?? null);
  const contextDeps: ContextDeps = {
    client: deps.client,
    requestDeadlineMs: config.requestDeadlineMs,
    maxUpstreamCalls: config.limits.upstreamCalls,
    observe,
    live,
    kept,
  };
  const sharedLiveWork = new SharedLiveWork(live);
  const yoga = createYoga<NodeServerContext & RelayContext, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    batching: false,
    // MAX_BODY_BYTES is enforced by server/body-size.ts while the body is read; yoga's own limit
    // would pipe every body through a second stream.
    maxRequestBodySize: false,
    // Only listed origins, never `null` (server/cors-origins.ts).
    cors: corsForOrigins(config.corsOrigins),
    maskedErrors: { maskError },
    // Bounded in bytes as well as entries; see bounded-cache.ts.
    parserAndValidationCache: { documentCache: documentCache(), errorCache: parseErrorCache() },
    // Served by useGraphiQLPage: compressed, cached, and rendered only when first asked for.
    graphiql: false,
    context: ({ request, res }) => createContext(contextDeps, request, { res }),
    // A persisted operation may be named by `documentId` instead of sending its text.
    extraParamNames: ['documentId'],
    plugins: pluginsOf(config, deps, { metrics, listeners, kept, sharedLiveWork }),
  });
  sharedLiveWork.runThrough(yoga);
  return yoga;
}

export type Gateway = ReturnType<typeof createGateway>;

/** What the plugins share with the rest of the gateway, made once by createGateway. */
interface PluginParts {
  metrics: ReturnType<typeof observabilityFor>['metrics'];
  listeners: ReturnType<typeof observabilityFor>['listeners'];
  kept: ReturnType<typeof keptAcrossRequests>;
  sharedLiveWork: SharedLiveWork;
}

/** Yoga's plugins, in the order they hook in (false: a plugin the configuration leaves out). */
function pluginsOf(config: Readonly<Config>, deps: GatewayDeps, parts: PluginParts) {
  const { metrics, listeners, kept, sharedLiveWork } = parts;
  const { manifest, only } = config.persistedOperations;
  const costReport = new CostReport({
    extensions: config.costExtensions,
    graphqlEndpoint: '/graphql',
    budgetLeft: (authorization) => deps.client.budgetLeft(hashKey(authorization)),
    grantReadPending: (authorization) => kept.keyGrants.readPending(hashKey(authorization)),
  });
  return [
    useRequestId(),
    // A GraphQL answer over GET: `Cache-Control: private, no-store`, `Vary: Authorization`.
    usePrivateGetAnswers('/graphql'),
    useOperatorEndpoints({
      readiness: deps.readiness ?? new Readiness(deps.client),
      metrics,
      metricsToken: config.metrics.token,
    }),
    config.graphiql &&
      useGraphiQLPage('/graphql', {
        title: 'Destinations GraphQL gateway',
        defaultQuery: EXAMPLE_QUERY,
        headers: deps.graphiqlDemoKey
          ? JSON.stringify({ Authorization: `Bearer ${deps.graphiqlDemoKey}` })
          : undefined,
        upstream: deps.graphiqlUpstream ?? { url: config.upstreamUrl ?? 'not given', demo: null },
      }),
    // CORS off: a browser's preflight hears of CORS_ORIGINS (else yoga's CORS answers it).
    !config.corsOrigins && useCorsOffPreflight(),
    usePersistedOperations({ manifest, only, shared: deps.sharedApq ?? null }),
    useLimits(config.limits, estimatorFor(kept.upstreamFeatures), costReport),
    // Before anything starts: an answer in parts needs an Accept that carries parts (406).
    useStreamAccept(),
    // No key: one UNAUTHENTICATED for the request when nothing could be answered without one.
    useKeyRefusal(),
    // Incremental answers (multipart/mixed or SSE); jit.ts leaves those documents to yoga's executor.
    useDeferStream(),
    useLiveQueries(deps.live),
    config.executor === 'compiled' && useJit(),
    // After what sets how a subscription or live query runs: identical ones run once.
    useSharedLiveWork(sharedLiveWork),
    usePartialErrors(),
    // After what makes an answer (jit, live queries, partial errors): one too large is refused.
    useAnswerSizeLimit(config.limits.answerBytes),
    // No CSRF prevention: the gateway authenticates only by the Authorization header, which a
    // cross-site page cannot make a browser send, and there are no cookies to ride on. Queries
    // over GET (urql's default) just work; mutations stay POST-only; CORS is off unless allowed.

    // Before the records, so that log, metrics and traces have the codes callers see.
    useStableErrorCodes(schema),
    useOperationRecords(listeners),
    // After what makes or refuses an answer: extensions.cost, and the RateLimit fields over HTTP.
    costReport.plugin(),
    // A stream of results over SSE: written at a smaller cost per open stream than yoga's.
    useSseWriter(),
    // Last: the WebSocket transport takes its results here, after everything above has seen them.
    useRelayedResults(),
    // After every onExecute: an introspection-only query's answer, computed once, is served
    // instead of running, and every hook above still sees it (limits/introspection-cache.ts).
    useIntrospectionCache(),
  ];
}
