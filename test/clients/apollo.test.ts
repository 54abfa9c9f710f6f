// Apollo Client's normalized cache against the gateway: relayStylePagination pages through every
// config (forward) and all activity (forward, then backward), and a mutation through an id read
// under "1" shows in a list read under "@current" from the cache alone (one id per object).
// Against today's PostHog, fetchMore pages batch exports and the destinations of all three kinds
// to the end; a batch export is one cache record whichever list read it.
import { readFileSync } from 'node:fs';
import {
  ApolloClient,
  type DocumentNode,
  gql,
  HttpLink,
  InMemoryCache,
  type OperationVariables,
} from '@apollo/client/core';
import { relayStylePagination } from '@apollo/client/utilities';
import { buildSchema, isAbstractType } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

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
        edges {
          cursor
          node {
            __typename
            id
            name
            enabled
            ... on HogFunction { type }
            ... on DestinationConfig { databaseId }
            ... on BatchExport { uuid paused destinationType }
          }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const BATCH_EXPORTS = gql`
  query BatchExports($first: Int, $after: String) {
    project(projectId: "1") {
      id
      batchExports(first: $first, after: $after) {
        totalCount
        edges { cursor node { id uuid name interval paused enabled } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const PAUSE = gql`
  mutation Pause($id: ID!) {
    pauseBatchExport(input: { id: $id }) { batchExport { id paused enabled } }
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

interface DestinationNode {
  __typename: 'HogFunction' | 'DestinationConfig' | 'BatchExport';
  id: string;
  enabled: boolean;
  uuid?: string;
  paused?: boolean;
  destinationType?: string;
}
interface BatchExportNode {
  id: string;
  uuid: string;
  paused: boolean;
  enabled: boolean;
}
type DestinationsData = { project: { destinations: Page<DestinationNode> } };
type BatchExportsData = { project: { batchExports: Page<BatchExportNode> } };
type HogFunctionsData = { project: { hogFunctions: Page<{ id: string }> } };

const EXPORTS = '/api/projects/1/batch_exports/';
const HOG_FUNCTION_LIST = '/api/projects/1/hog_functions/';

/** Every interface and union of schema.graphql with the object types that implement it, as Apollo's possibleTypes. */
function possibleTypesOf(sdl: string): Record<string, string[]> {
  const schema = buildSchema(sdl);
  return Object.fromEntries(
    Object.values(schema.getTypeMap())
      .filter(isAbstractType)
      .map((type) => [type.name, schema.getPossibleTypes(type).map((t) => t.name)]),
  );
}
const POSSIBLE_TYPES = possibleTypesOf(
  readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'),
);

/**
 * Pages a watched query to the end as a "load more" button does: fetchMore with the last page's
 * endCursor, relayStylePagination merging each page into the one list the cache holds.
 */
async function pageToEnd<T>(
  client: ApolloClient,
  query: DocumentNode,
  variables: OperationVariables,
  connection: (data: T) => Page<unknown>,
): Promise<{ merged: T; pages: number }> {
  const watched = client.watchQuery<T>({ query, variables });
  let subscription: { unsubscribe(): void } | undefined;
  const first = new Promise<T>((resolve, reject) => {
    subscription = watched.subscribe({
      next: (result) => {
        if (result.dataState === 'complete') resolve(result.data as T);
      },
      error: reject,
    });
  });
  try {
    let page = connection(await first);
    let pages = 1;
    while (page.pageInfo.hasNextPage) {
      const more = await watched.fetchMore({ variables: { after: page.pageInfo.endCursor } });
      page = connection(more.data as T);
      pages++;
    }
    // What the cache holds for the field: every page, merged.
    return { merged: client.readQuery<T>({ query, variables })!, pages };
  } finally {
    subscription?.unsubscribe();
  }
}

/** The normalized cache's records, by key (`<__typename>:<id>`). */
const recordsIn = (client: ApolloClient) => client.cache.extract() as Record<string, Record<string, unknown>>;
/** The keys of one type's records: one a normalized object. */
const recordsOf = (client: ApolloClient, typename: string) =>
  Object.keys(recordsIn(client)).filter((key) => key.startsWith(`${typename}:`));

describe('Apollo Client against today’s PostHog (posthog-2026)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  // The pause below changes the seed; each case starts from it with an empty request log.
  beforeEach(() => h.reset());

  const newClient = () =>
    new ApolloClient({
      link: new HttpLink({ uri: h.url, headers: { authorization: 'Bearer phx_full' }, fetch }),
      cache: new InMemoryCache({
        possibleTypes: POSSIBLE_TYPES,
        typePolicies: {
          Project: {
            fields: {
              destinations: relayStylePagination(),
              hogFunctions: relayStylePagination(),
              batchExports: relayStylePagination(),
            },
          },
        },
      }),
    });

  it('builds possibleTypes with BatchExport a Destination and a Node', () => {
    expect(POSSIBLE_TYPES.Destination?.sort()).toEqual(['BatchExport', 'DestinationConfig', 'HogFunction']);
    expect(POSSIBLE_TYPES.Node).toEqual(expect.arrayContaining(['BatchExport', 'BatchExportRun', 'Project']));
  });

  it('pages every batch export with fetchMore, one upstream list call a page', async () => {
    const client = newClient();
    const { merged, pages } = await pageToEnd<BatchExportsData>(
      client,
      BATCH_EXPORTS,
      { first: 2 },
      (d) => d.project.batchExports,
    );
    const list = merged.project.batchExports;
    expect(list.totalCount).toBe(6);
    expect(pages).toBe(3);
    expect(list.edges).toHaveLength(list.totalCount);
    const ids = list.edges.map((e) => e.node.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { node } of list.edges) expect(node.enabled).toBe(!node.paused);
    expect(recordsOf(client, 'BatchExport').sort()).toEqual(ids.map((id) => `BatchExport:${id}`).sort());
    expect(h.upstreamCalls().map((c) => c.path)).toEqual([EXPORTS, EXPORTS, EXPORTS]);
  });

  it('pages every destination of all three kinds with fetchMore, batch exports last', async () => {
    const client = newClient();
    const { merged, pages } = await pageToEnd<DestinationsData>(
      client,
      DESTINATIONS,
      {},
      (d) => d.project.destinations,
    );
    const list = merged.project.destinations;
    const nodes = list.edges.map((e) => e.node);
    expect(pages).toBe(Math.ceil(list.totalCount / 40));
    expect(nodes).toHaveLength(list.totalCount);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    // Hog functions, then configs, then batch exports: each kind one run of the list.
    const kinds = nodes.map((n) => n.__typename);
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual([
      'HogFunction',
      'DestinationConfig',
      'BatchExport',
    ]);
    const exports = nodes.filter((n) => n.__typename === 'BatchExport');
    expect(exports).toHaveLength(6);
    for (const n of exports) {
      expect(n).toMatchObject({ uuid: expect.any(String), destinationType: expect.any(String) });
      expect(n.enabled).toBe(!n.paused);
    }
    // One record a destination, none twice.
    for (const kind of ['HogFunction', 'DestinationConfig', 'BatchExport']) {
      expect(recordsOf(client, kind)).toHaveLength(kinds.filter((k) => k === kind).length);
    }
    // Each page reads each kind's list once.
    expect(h.upstreamCalls({ path: HOG_FUNCTION_LIST })).toHaveLength(pages);
    expect(h.upstreamCalls({ path: EXPORTS })).toHaveLength(pages);
  });

  it('keeps one cache record for a batch export read through destinations and through batchExports', async () => {
    const client = newClient();
    const viaDestinations = await pageToEnd<DestinationsData>(
      client,
      DESTINATIONS,
      {},
      (d) => d.project.destinations,
    );
    const viaList = await pageToEnd<BatchExportsData>(
      client,
      BATCH_EXPORTS,
      { first: 2 },
      (d) => d.project.batchExports,
    );
    const fromDestinations = viaDestinations.merged.project.destinations.edges
      .map((e) => e.node)
      .filter((n) => n.__typename === 'BatchExport');
    const fromList = viaList.merged.project.batchExports.edges.map((e) => e.node);
    expect(fromDestinations.map((n) => n.id)).toEqual(fromList.map((n) => n.id));
    expect(recordsOf(client, 'BatchExport')).toHaveLength(6);
    // The one record holds the fields of both selections.
    const target = fromList.find((n) => !n.paused)!;
    expect(recordsIn(client)[`BatchExport:${target.id}`]).toMatchObject({
      uuid: target.uuid,
      destinationType: expect.any(String),
      interval: expect.any(String),
    });

    // A pause through the id shows in both lists from the cache alone.
    await client.mutate({ mutation: PAUSE, variables: { id: target.id } });
    h.upstream.clearRequests();
    const destinations = client.readQuery<DestinationsData>({ query: DESTINATIONS })!;
    const list = client.readQuery<BatchExportsData>({ query: BATCH_EXPORTS, variables: { first: 2 } })!;
    expect(destinations.project.destinations.edges.find((e) => e.node.id === target.id)!.node).toMatchObject({
      paused: true,
      enabled: false,
    });
    expect(list.project.batchExports.edges.find((e) => e.node.id === target.id)!.node).toMatchObject({
      paused: true,
      enabled: false,
    });
    expect(h.upstreamCalls()).toHaveLength(0);
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
