// Apollo Client 4 against the gateway: a normalized cache that knows the schema's interfaces
// (possibleTypes) and merges Relay connections page by page (relayStylePagination), queries and
// mutations over HTTP, subscriptions over graphql-ws (the `ws` package on Node; a browser has its own
// WebSocket). docs/clients.md; test/examples/apollo-client.test.ts runs it against a gateway.
//   GATEWAY_URL=http://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/apollo-client.ts 1
import { fileURLToPath } from 'node:url';
import { ApolloClient, gql, HttpLink, InMemoryCache, split } from '@apollo/client/core';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition, relayStylePagination } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** The schema's interfaces and their types: without them a fragment on an interface never matches. */
export const POSSIBLE_TYPES = {
  Node: [
    'BatchExport',
    'BatchExportBackfill',
    'BatchExportRun',
    'DestinationConfig',
    'HogFunction',
    'HogFunctionRevision',
    'Project',
  ],
  Destination: ['BatchExport', 'DestinationConfig', 'HogFunction'],
};

export function createApolloClient(url: string, key: string) {
  const http = new HttpLink({ uri: url, headers: { Authorization: `Bearer ${key}` } });
  const ws = new GraphQLWsLink(
    createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      // A WebSocket carries no headers: the key goes in the connection's init payload.
      connectionParams: { Authorization: `Bearer ${key}` },
    }),
  );
  const isSubscription = ({ query }: { query: Parameters<typeof getMainDefinition>[0] }) => {
    const definition = getMainDefinition(query);
    return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
  };
  return new ApolloClient({
    link: split(isSubscription, ws, http),
    cache: new InMemoryCache({
      possibleTypes: POSSIBLE_TYPES,
      typePolicies: {
        // Each connection merged across pages; its other arguments name separate lists.
        Project: {
          fields: {
            destinations: relayStylePagination(['kinds', 'enabled', 'search', 'orderBy']),
            hogFunctions: relayStylePagination(['types', 'enabled', 'search']),
            hogFunctionTemplates: relayStylePagination(['types', 'search']),
            destinationConfigs: relayStylePagination(),
            batchExports: relayStylePagination(),
            activityLog: relayStylePagination(['scope', 'itemId', 'userId']),
          },
        },
      },
    }),
  });
}

export const DESTINATIONS = gql`
  query Destinations($projectId: String!, $after: String) {
    project(projectId: $projectId) {
      id
      destinations(first: 20, after: $after) {
        totalCount
        edges { node { id name enabled ... on HogFunction { type } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

interface DestinationsData {
  project: {
    id: string;
    destinations: {
      totalCount: number;
      edges: { node: { __typename: string; id: string; name: string | null; enabled: boolean } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  };
}

/** Every destination of a project: the first page, then fetchMore until the end, merged in the cache. */
export async function allDestinations(client: ApolloClient, projectId: string) {
  const first = await client.query<DestinationsData>({
    query: DESTINATIONS,
    variables: { projectId },
    fetchPolicy: 'network-only',
    // A field that fails is null with a coded error beside the rest of the answer: keep both.
    errorPolicy: 'all',
  });
  let page = first.data!.project.destinations;
  while (page.pageInfo.hasNextPage) {
    const more = await client.query<DestinationsData>({
      query: DESTINATIONS,
      variables: { projectId, after: page.pageInfo.endCursor },
      fetchPolicy: 'network-only', // the cache already holds a (merged) list: ask for the next page
      errorPolicy: 'all',
    });
    page = more.data!.project.destinations;
  }
  // The cache holds every page under the first page's query.
  return client.readQuery<DestinationsData>({ query: DESTINATIONS, variables: { projectId } })!.project
    .destinations;
}

export const ACTIVITY_ADDED = gql`
  subscription ActivityAdded($projectId: String!) {
    activityAdded(projectId: $projectId) { id activity scope itemId createdAt }
  }
`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = createApolloClient(
    process.env.GATEWAY_URL ?? 'http://localhost:4000/graphql',
    process.env.POSTHOG_KEY ?? '',
  );
  const projectId = process.argv[2] ?? '@current';
  const destinations = await allDestinations(client, projectId);
  for (const { node } of destinations.edges) console.log(node.__typename, node.name, node.enabled);
  console.log(
    `${destinations.edges.length} of ${destinations.totalCount}; watching the activity log (Ctrl-C to stop)`,
  );
  client.subscribe({ query: ACTIVITY_ADDED, variables: { projectId } }).subscribe({
    next: ({ data, error }) => console.log(error ?? JSON.stringify(data)),
  });
}
