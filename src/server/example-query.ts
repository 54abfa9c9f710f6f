// The query GraphiQL opens with, and the one README's quick start sends.

/** The combined view: destinations of both kinds with their latest activity, and the log. */
export const EXAMPLE_QUERY = `# One round trip: a project's destinations (hog functions and legacy plugin
# configs alike) with their latest activity, and the project's activity log.
# Send your key in the Headers tab as {"Authorization": "Bearer <personal API key>"}.
query CombinedView($projectId: String! = "@current") {
  project(projectId: $projectId) {
    id
    name
    destinations(first: 5) {
      totalCount
      edges {
        node {
          __typename
          id
          name
          enabled
          ... on HogFunction { type template { name } status { name } }
          ... on DestinationConfig { databaseId order }
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
  }
}
`;
