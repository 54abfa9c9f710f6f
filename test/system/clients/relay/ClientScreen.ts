// Operations as a Relay app writes them, compiled by the real Relay compiler in relay.test.ts
// against schema.graphql. Only the compiler reads these tags; nothing runs this module.
const graphql = String.raw;

export const screen = graphql`
  query ClientScreenQuery($projectId: String!) {
    project(projectId: $projectId) {
      name
      ...ClientScreen_configs
      ...ClientScreen_activity
    }
  }
`;

export const configs = graphql`
  fragment ClientScreen_configs on Project
  @refetchable(queryName: "ClientScreenConfigsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
    destinationConfigs(first: $count, after: $cursor) @connection(key: "ClientScreen_destinationConfigs") {
      totalCount
      edges { node { id ...ClientScreen_config } }
    }
  }
`;

export const config = graphql`
  fragment ClientScreen_config on DestinationConfig
  @refetchable(queryName: "ClientScreenConfigRefetchQuery") {
    databaseId
    name
    enabled
    order
  }
`;

// The detail screen of one config: its activity, paged with @connection.
export const detail = graphql`
  query ClientScreenDetailQuery($id: ID!) {
    node(id: $id) {
      ...ClientScreen_config @alias
      ...ClientScreen_configActivity @alias
    }
  }
`;

export const configActivity = graphql`
  fragment ClientScreen_configActivity on DestinationConfig
  @refetchable(queryName: "ClientScreenConfigActivityPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
    activity(first: $count, after: $cursor) @connection(key: "ClientScreen_configActivity_activity") {
      edges { node { id activity createdAt } }
    }
  }
`;

export const activity = graphql`
  fragment ClientScreen_activity on Project
  @refetchable(queryName: "ClientScreenActivityPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
    activityLog(first: $count, after: $cursor) @connection(key: "ClientScreen_activityLog") {
      edges { node { id activity createdAt destinationConfig { id name } } }
    }
  }
`;

export const update = graphql`
  mutation ClientScreenUpdateMutation($input: UpdateDestinationConfigInput!) {
    updateDestinationConfig(input: $input) {
      destinationConfig { id enabled ...ClientScreen_config }
    }
  }
`;
