// A screen of today's PostHog as a Relay app writes it: the project's batch exports, paged both
// ways with @connection, and its destinations of all three kinds, paged with @connection and
// filtered by kind. Compiled by the real Relay compiler in relay.test.ts; nothing runs this module.
const graphql = String.raw;

export const screen = graphql`
  query BatchExportScreenQuery($projectId: String!) {
    project(projectId: $projectId) {
      name
      ...BatchExportScreen_batchExports
      ...BatchExportScreen_destinations
    }
  }
`;

export const batchExports = graphql`
  fragment BatchExportScreen_batchExports on Project
  @refetchable(queryName: "BatchExportScreenBatchExportsPaginationQuery")
  @argumentDefinitions(
    first: { type: "Int", defaultValue: 2 }
    after: { type: "String" }
    last: { type: "Int" }
    before: { type: "String" }
  ) {
    batchExports(first: $first, after: $after, last: $last, before: $before)
    @connection(key: "BatchExportScreen_batchExports") {
      totalCount
      edges { node { id uuid name interval intervalValue paused enabled destinationType latestRuns { status statusValue } } }
    }
  }
`;

export const destinations = graphql`
  fragment BatchExportScreen_destinations on Project
  @refetchable(queryName: "BatchExportScreenDestinationsPaginationQuery")
  @argumentDefinitions(
    count: { type: "Int", defaultValue: 40 }
    cursor: { type: "String" }
    kinds: { type: "[DestinationKind!]" }
  ) {
    destinations(first: $count, after: $cursor, kinds: $kinds)
    @connection(key: "BatchExportScreen_destinations", filters: ["kinds"]) {
      totalCount
      edges {
        node {
          id
          name
          enabled
          ... on HogFunction { type }
          ... on DestinationConfig { databaseId }
          ... on BatchExport { uuid paused destinationType }
        }
      }
    }
  }
`;
