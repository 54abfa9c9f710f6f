// The query GraphiQL opens with, and the one README's quick start sends.

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
