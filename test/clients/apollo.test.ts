// Apollo Client's normalized cache against the gateway: relayStylePagination pages through every
// config (forward) and all activity (forward, then backward), and a mutation through an id read
// under "1" shows in a list read under "@current" from the cache alone (one id per object).
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { relayStylePagination } from '@apollo/client/utilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';

const CONFIGS = gql`
  query Configs($projectId: String!, $after: String) {
    project(projectId: $projectId) {
      id
      destinationConfigs(first: 40, after: $after) {
        totalCount
        edges { cursor node { id databaseId name enabled } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const ACTIVITY = gql`
  query Activity($first: Int, $after: String, $last: Int, $before: String) {
    project(projectId: "1") {
      id
      activityLog(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id activity createdAt } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`;

const CONFIG = gql`
  query Config($databaseId: Int!) {
    project(projectId: "1") { id destinationConfig(databaseId: $databaseId) { id databaseId enabled } }
  }
`;

const UPDATE = gql`
  mutation Update($input: UpdateDestinationConfigInput!) {
    updateDestinationConfig(input: $input) { destinationConfig { id enabled } }
  }
`;

interface ConfigsData {
  project: {
    id: string;
    destinationConfigs: {
      totalCount: number;
      edges: { node: { id: string; databaseId: number; enabled: boolean } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  };
}

interface ActivityData {
  project: {
    activityLog: {
      edges: { node: { id: string } }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
    };
  };
}

describe('Apollo Client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const newClient = () =>
    new ApolloClient({
      link: new HttpLink({ uri: h.url, headers: { authorization: 'Bearer phx_full' }, fetch }),
      cache: new InMemoryCache({
        typePolicies: {
          Project: {
            fields: { destinationConfigs: relayStylePagination(), activityLog: relayStylePagination() },
          },
        },
      }),
    });

  it('pages through every config with relayStylePagination', async () => {
    const client = newClient();
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const result: { data?: ConfigsData } = await client.query<ConfigsData>({
        query: CONFIGS,
        variables: { projectId: '1', after },
        fetchPolicy: 'network-only',
      });
      pages++;
      const page: ConfigsData['project']['destinationConfigs'] = result.data!.project.destinationConfigs;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const merged = client.readQuery<ConfigsData>({ query: CONFIGS, variables: { projectId: '1' } })!;
    const ids = merged.project.destinationConfigs.edges.map((e) => e.node.databaseId);
    expect(pages).toBe(Math.ceil(155 / 40));
    expect(ids).toHaveLength(merged.project.destinationConfigs.totalCount);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('pages through all activity forward, then backward, to the same 260 entries', async () => {
    const forwardClient = newClient();
    for (let after: string | null = null; ; ) {
      const result: { data?: ActivityData } = await forwardClient.query<ActivityData>({
        query: ACTIVITY,
        variables: { first: 100, after },
        fetchPolicy: 'network-only',
      });
      const log: ActivityData['project']['activityLog'] = result.data!.project.activityLog;
      if (!log.pageInfo.hasNextPage) break;
      after = log.pageInfo.endCursor;
    }
    const forward = forwardClient.readQuery<ActivityData>({ query: ACTIVITY, variables: {} })!;
    const forwardIds = forward.project.activityLog.edges.map((e) => e.node.id);
    expect(forwardIds).toHaveLength(260);

    const backwardClient = newClient();
    let variables: Record<string, unknown> = { last: 100 };
    for (;;) {
      const { data } = await backwardClient.query<ActivityData>({
        query: ACTIVITY,
        variables,
        fetchPolicy: 'network-only',
      });
      const log = data!.project.activityLog;
      if (!log.pageInfo.hasPreviousPage) break;
      variables = { last: 100, before: log.pageInfo.startCursor };
    }
    const backward = backwardClient.readQuery<ActivityData>({ query: ACTIVITY, variables: {} })!;
    expect(backward.project.activityLog.edges.map((e) => e.node.id)).toEqual(forwardIds);
  });

  it('shows a mutation through an id read under "1" in a list read under "@current", from the cache alone', async () => {
    const client = newClient();
    const list = await client.query<ConfigsData>({ query: CONFIGS, variables: { projectId: '@current' } });
    const target = list.data!.project.destinationConfigs.edges[3]!.node;
    const one = await client.query<{ project: { destinationConfig: { id: string; enabled: boolean } } }>({
      query: CONFIG,
      variables: { databaseId: target.databaseId },
    });
    expect(one.data!.project.destinationConfig.id).toBe(target.id);
    // One record for the config and one for the project, whichever path reached them.
    const records = client.cache.extract() as Record<string, unknown>;
    expect(records).toHaveProperty([`DestinationConfig:${target.id}`]);
    expect(Object.keys(records).filter((k) => k.startsWith('Project:'))).toHaveLength(1);

    await client.mutate({
      mutation: UPDATE,
      variables: { input: { id: target.id, enabled: !target.enabled } },
    });
    h.upstream.clearRequests();
    const cached = client.readQuery<ConfigsData>({ query: CONFIGS, variables: { projectId: '@current' } })!;
    const after = cached.project.destinationConfigs.edges.find((e) => e.node.id === target.id)!.node;
    expect(after.enabled).toBe(!target.enabled);
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});

const DESTINATIONS = gql`
  query Destinations($after: String) {
    project(projectId: "1") {
      id
      destinations(first: 40, after: $after) {
        totalCount
        edges { cursor node { __typename id name ... on HogFunction { type } ... on DestinationConfig { databaseId } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const HOG_FUNCTIONS = gql`
  query HogFunctions($first: Int, $after: String, $last: Int, $before: String) {
    project(projectId: "1") {
      id
      hogFunctions(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        edges { cursor node { id uuid name } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`;

interface Page<N> {
  totalCount: number;
  edges: { node: N }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage?: boolean;
    startCursor?: string;
    endCursor: string | null;
  };
}

type DestinationsData = { project: { destinations: Page<{ id: string }> } };
type HogFunctionsData = { project: { hogFunctions: Page<{ id: string }> } };

describe('Apollo Client against today’s PostHog (posthog-2026)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  const newClient = () =>
    new ApolloClient({
      link: new HttpLink({ uri: h.url, headers: { authorization: 'Bearer phx_full' }, fetch }),
      cache: new InMemoryCache({
        possibleTypes: { Destination: ['HogFunction', 'DestinationConfig'] },
        typePolicies: {
          Project: { fields: { destinations: relayStylePagination(), hogFunctions: relayStylePagination() } },
        },
      }),
    });

  it('pages through every destination of both kinds with relayStylePagination', async () => {
    const client = newClient();
    for (let after: string | null = null; ; ) {
      const result: { data?: DestinationsData } = await client.query<DestinationsData>({
        query: DESTINATIONS,
        variables: { after },
        fetchPolicy: 'network-only',
      });
      const page = result.data!.project.destinations;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const merged = client.readQuery<{ project: { destinations: Page<{ id: string; __typename: string }> } }>({
      query: DESTINATIONS,
      variables: {},
    })!;
    const nodes = merged.project.destinations.edges.map((e) => e.node);
    expect(nodes).toHaveLength(merged.project.destinations.totalCount);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    expect(new Set(nodes.map((n) => n.__typename))).toEqual(new Set(['HogFunction', 'DestinationConfig']));
  });

  it('pages hog functions forward, then backward, to the same 12', async () => {
    const forwardClient = newClient();
    for (let after: string | null = null; ; ) {
      const result: { data?: HogFunctionsData } = await forwardClient.query<HogFunctionsData>({
        query: HOG_FUNCTIONS,
        variables: { first: 5, after },
        fetchPolicy: 'network-only',
      });
      const page = result.data!.project.hogFunctions;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const forward = forwardClient.readQuery<{ project: { hogFunctions: Page<{ id: string }> } }>({
      query: HOG_FUNCTIONS,
      variables: {},
    })!;
    const backwardClient = newClient();
    for (let before: string | null = null; ; ) {
      const result: { data?: HogFunctionsData } = await backwardClient.query<HogFunctionsData>({
        query: HOG_FUNCTIONS,
        variables: { last: 5, before },
        fetchPolicy: 'network-only',
      });
      const page = result.data!.project.hogFunctions;
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor!;
    }
    const backward = backwardClient.readQuery<{ project: { hogFunctions: Page<{ id: string }> } }>({
      query: HOG_FUNCTIONS,
      variables: {},
    })!;
    const ids = (p: typeof forward) => p.project.hogFunctions.edges.map((e) => e.node.id);
    expect(ids(forward)).toHaveLength(12);
    expect(ids(backward)).toEqual(ids(forward));
  });
});
