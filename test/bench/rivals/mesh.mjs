// GraphQL Mesh: its OpenAPI source over posthog.openapi.json (the upstream GETs the bench reads),
// composed at start (@graphql-mesh/compose-cli) and served by its runtime
// (@graphql-hive/gateway-runtime), the caller's Authorization forwarded on every upstream call.
// Mesh exposes the REST shapes as they are, so the bench sends it its own queries
// (run.ts: MESH_QUERIES), asking for the same data: a config's activity is added with @resolveTo
// (one upstream GET per config), and the first N entries of a page with a small resolver, since
// the upstream has no page size for the log.
import { createServer } from 'node:http';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { getComposedSchemaFromConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

const cwd = new URL('.', import.meta.url).pathname;
const silent = {
  debug() {},
  info() {},
  warn: console.warn,
  error: console.error,
  log() {},
  child() {
    return silent;
  },
};
const supergraph = await getComposedSchemaFromConfig(
  {
    cwd,
    subgraphs: [
      {
        sourceHandler: loadOpenAPISubgraph('PostHog', {
          source: './posthog.openapi.json',
          endpoint: process.env.UPSTREAM_URL,
          operationHeaders: { Authorization: '{context.headers.authorization}' },
        }),
      },
    ],
    additionalTypeDefs: /* GraphQL */ `
      extend type Config {
        activity: ActivityPage
          @resolveTo(
            sourceName: "PostHog"
            sourceTypeName: "Query"
            sourceFieldName: "activity_log"
            requiredSelectionSet: "{ id team_id }"
            sourceArgs: { project_id: "{root.team_id}", item_id: "{root.id}", scope: "PluginConfig" }
          )
      }
    `,
  },
  silent,
);
const gateway = createGatewayRuntime({
  supergraph,
  logging: false,
  graphiql: false,
  landingPage: false,
  additionalTypeDefs: 'extend type ActivityPage { first(n: Int!): [ActivityEntry] }',
  additionalResolvers: {
    ActivityPage: {
      first: {
        // What the subgraph must fetch for it: every entry field the bench's queries read.
        selectionSet:
          '{ results { id activity scope item_id unread created_at user { first_name last_name email } } }',
        resolve: (page, { n }) => page.results.slice(0, n),
      },
    },
  },
});
const server = createServer(gateway);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/graphql`);
});
process.on('SIGTERM', () => server.close(() => gateway.dispose().then(() => process.exit(0))));
