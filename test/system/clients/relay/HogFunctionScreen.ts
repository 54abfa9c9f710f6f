// A screen of today's PostHog as a Relay app writes it: the project's destinations of both kinds
// and its hog functions, each paged with @connection, and a @refetchable hog function.
// Compiled by the real Relay compiler in relay.test.ts; nothing runs this module.
const graphql = String.raw;

export const screen = graphql`
  query HogFunctionScreenQuery($projectId: String!) {
    project(projectId: $projectId) {
      name
      ...HogFunctionScreen_destinations
      ...HogFunctionScreen_functions
    }
  }
`;

export const destinations = graphql`
  fragment HogFunctionScreen_destinations on Project
  @refetchable(queryName: "HogFunctionScreenDestinationsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
    destinations(first: $count, after: $cursor) @connection(key: "HogFunctionScreen_destinations") {
      totalCount
      edges { node { id name enabled ... on HogFunction { type } } }
    }
  }
`;

export const functions = graphql`
  fragment HogFunctionScreen_functions on Project
  @refetchable(queryName: "HogFunctionScreenFunctionsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
    hogFunctions(first: $count, after: $cursor) @connection(key: "HogFunctionScreen_hogFunctions") {
      totalCount
      edges { node { id ...HogFunctionScreen_function } }
    }
  }
`;

export const hogFunction = graphql`
  fragment HogFunctionScreen_function on HogFunction
  @refetchable(queryName: "HogFunctionScreenFunctionRefetchQuery") {
    uuid
    name
    type
    typeValue
    enabled
    status { name }
  }
`;
