// createGateway(config, deps) → the yoga instance. No side effects and no listening: main.ts
// serves it over HTTP, tests call it through a real server on port 0.
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createContext, type GatewayContext } from './context.ts';
import { createMaskError, useStableErrorCodes } from './errors.ts';
import { useLimits } from './limits/index.ts';
import { createLogger, useOperationLog } from './operation-log.ts';
import { schema } from './schema/index.ts';
import { UpstreamClient } from './upstream/client.ts';

export interface GatewayDeps {
  client: UpstreamClient;
  /** Prefilled in GraphiQL's headers; only ever set for the embedded reference upstream. */
  graphiqlDemoKey?: string | null;
  /** Where the operation log goes; pino on stdout at config.logLevel when not given. */
  logger?: Logger;
}

export function createUpstreamClient(config: Config, origin: string): UpstreamClient {
  return new UpstreamClient({ origin, ...config.upstream });
}

/** The combined view GraphiQL opens with: configs with their latest activity, the log, and what changed. */
export const EXAMPLE_QUERY = `# One round trip: a project's destinations with their latest activity,
# the project's activity log and its important changes. Send your key in the
# Headers tab as {"Authorization": "Bearer <personal API key>"}.
query CombinedView($projectId: String! = "@current") {
  project(projectId: $projectId) {
    id
    name
    destinationConfigs(first: 5) {
      totalCount
      edges {
        node {
          id
          databaseId
          name
          enabled
          order
          deliveryRate24h
          activity(first: 2) {
            edges { node { activity createdAt user { email } } }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
    activityLog(first: 5) {
      edges {
        node { activity scope itemId createdAt user { firstName lastName } }
      }
      pageInfo { hasNextPage endCursor }
    }
    importantChanges {
      lastRead
      entries { activity scope itemId unread createdAt }
    }
  }
}
`;

/**
 * GraphiQL with its scripts inlined (yoga's default page loads them from a CDN, which a gateway
 * on a closed network cannot reach). The page is the same for every request: rendered once.
 */
function graphiqlPage(options?: Parameters<typeof renderGraphiQL>[0]): string {
  const key = JSON.stringify(options ?? {});
  if (renderedPages.get(key) === undefined) renderedPages.set(key, renderGraphiQL(options));
  return renderedPages.get(key)!;
}
const renderedPages = new Map<string, string>();

export function createGateway(config: Readonly<Config>, deps: GatewayDeps) {
  const logger = deps.logger ?? createLogger(config.logLevel);
  // A masked error's detail goes to the log only: its message and stack, never the request.
  const maskError = createMaskError((error) =>
    logger.error(
      { error: { message: (error as Error)?.message, stack: (error as Error)?.stack } },
      'unexpected error',
    ),
  );
  return createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    batching: false,
    cors: config.corsOrigins ? { origin: config.corsOrigins, credentials: false } : false,
    maskedErrors: { maskError },
    renderGraphiQL: graphiqlPage,
    graphiql: config.graphiql
      ? {
          title: 'Destinations GraphQL gateway',
          defaultQuery: EXAMPLE_QUERY,
          headers: deps.graphiqlDemoKey
            ? JSON.stringify({ Authorization: `Bearer ${deps.graphiqlDemoKey}` })
            : undefined,
        }
      : false,
    context: ({ request }) =>
      createContext(
        {
          client: deps.client,
          requestDeadlineMs: config.requestDeadlineMs,
          maxUpstreamCalls: config.limits.upstreamCalls,
        },
        request,
      ),
    plugins: [
      useLimits(config.limits),
      // Requests a browser could send cross-site without a preflight must carry this header
      // (GraphiQL and JSON POSTs already are not "simple" requests).
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight'] }),
      // Before the log, so that it records the codes callers see.
      useStableErrorCodes(),
      useOperationLog(logger),
    ],
  });
}

export type Gateway = ReturnType<typeof createGateway>;
