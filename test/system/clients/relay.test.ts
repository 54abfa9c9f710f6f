// The Relay compiler (its binary ships in the relay-compiler package) compiles the operations of
// test/clients/relay/ against schema.graphql: @refetchable fragments, @connection pagination on
// both connections, a mutation. The query texts it generates then run against the gateway with
// no errors, the pagination and refetch queries included; against today's PostHog they page the
// batch exports both ways and the destinations of all three kinds to the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.ts';
import { compileWithRelay } from './relay/compile.ts';

const EXPORTS = '/api/projects/1/batch_exports/';

interface Connection<N> {
  totalCount: number;
  edges: { node: N; cursor: string }[];
  pageInfo: {
    hasNextPage: boolean;
    endCursor: string | null;
    hasPreviousPage?: boolean;
    startCursor?: string | null;
  };
}
interface DestinationNode {
  __typename: string;
  id: string;
  enabled: boolean;
  uuid?: string;
  paused?: boolean;
  destinationType?: string;
}

describe('operations compiled by the Relay compiler', () => {
  let h: Harness;
  let texts: Map<string, string>;
  beforeAll(async () => {
    h = await startHarness();
    texts = compileWithRelay().operations;
  });
  afterAll(() => h.close());

  // biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
  async function run(name: string, variables: Record<string, unknown>): Promise<any> {
    const text = texts.get(name);
    expect(text, `the compiler generated ${name}`).toBeDefined();
    const { body } = await h.gql(text!, variables);
    expect(body.errors, `${name}: ${JSON.stringify(body.errors)}`).toBeUndefined();
    return body.data;
  }

  it('generates every operation, and each runs against the gateway without errors', async () => {
    expect([...texts.keys()].sort()).toEqual([
      'BatchExportScreenBatchExportsPaginationQuery',
      'BatchExportScreenDestinationsPaginationQuery',
      'BatchExportScreenQuery',
      'ClientScreenActivityPaginationQuery',
      'ClientScreenConfigActivityPaginationQuery',
      'ClientScreenConfigRefetchQuery',
      'ClientScreenConfigsPaginationQuery',
      'ClientScreenDetailQuery',
      'ClientScreenQuery',
      'ClientScreenUpdateMutation',
      'HogFunctionScreenDestinationsPaginationQuery',
      'HogFunctionScreenFunctionRefetchQuery',
      'HogFunctionScreenFunctionsPaginationQuery',
      'HogFunctionScreenQuery',
    ]);

    const screen = await run('ClientScreenQuery', { projectId: '1' });
    const project = screen.project;
    expect(project.destinationConfigs.edges).toHaveLength(50);
    expect(project.activityLog.edges).toHaveLength(50);

    const moreConfigs = await run('ClientScreenConfigsPaginationQuery', {
      id: project.id,
      count: 50,
      cursor: project.destinationConfigs.pageInfo.endCursor,
    });
    expect(moreConfigs.node.destinationConfigs.edges[0].node.id).not.toBe(
      project.destinationConfigs.edges[0].node.id,
    );
    const moreActivity = await run('ClientScreenActivityPaginationQuery', {
      id: project.id,
      count: 50,
      cursor: project.activityLog.pageInfo.endCursor,
    });
    expect(moreActivity.node.activityLog.edges).toHaveLength(50);

    const configId = project.destinationConfigs.edges[1].node.id;
    const refetched = await run('ClientScreenConfigRefetchQuery', { id: configId });
    expect(refetched.node.id).toBe(configId);
    const detail = await run('ClientScreenDetailQuery', { id: configId });
    const activity = detail.node.activity;
    expect(activity.edges.length).toBeGreaterThan(0);
    await run('ClientScreenConfigActivityPaginationQuery', {
      id: configId,
      count: 5,
      cursor: activity.pageInfo.endCursor,
    });

    const updated = await run('ClientScreenUpdateMutation', { input: { id: configId, enabled: false } });
    expect(updated.updateDestinationConfig.destinationConfig).toMatchObject({ id: configId, enabled: false });
  });
});

describe('hog functions and destinations compiled by the Relay compiler, against today’s PostHog', () => {
  let h: Harness;
  let texts: Map<string, string>;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
    texts = compileWithRelay().operations;
  });
  afterAll(() => h.close());

  // biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
  async function run(name: string, variables: Record<string, unknown>): Promise<any> {
    const { body } = await h.gql(texts.get(name)!, variables);
    expect(body.errors, `${name}: ${JSON.stringify(body.errors)}`).toBeUndefined();
    return body.data;
  }

  it('pages destinations and hog functions with @connection and refetches a hog function', async () => {
    const { project } = await run('HogFunctionScreenQuery', { projectId: '1' });
    expect(project.destinations.edges).toHaveLength(5);
    expect(project.hogFunctions.totalCount).toBe(12);
    const destinations: string[] = project.destinations.edges.map((e: { node: { id: string } }) => e.node.id);
    let cursor = project.destinations.pageInfo.endCursor;
    for (let pages = 0; pages < 40 && cursor; pages++) {
      const more = await run('HogFunctionScreenDestinationsPaginationQuery', {
        id: project.id,
        count: 50,
        cursor,
      });
      destinations.push(...more.node.destinations.edges.map((e: { node: { id: string } }) => e.node.id));
      cursor = more.node.destinations.pageInfo.hasNextPage ? more.node.destinations.pageInfo.endCursor : null;
    }
    expect(destinations).toHaveLength(project.destinations.totalCount);
    expect(new Set(destinations).size).toBe(destinations.length);
    const functions = await run('HogFunctionScreenFunctionsPaginationQuery', {
      id: project.id,
      count: 5,
      cursor: project.hogFunctions.pageInfo.endCursor,
    });
    expect(functions.node.hogFunctions.edges).toHaveLength(5);
    const id = functions.node.hogFunctions.edges[0].node.id;
    const refetched = await run('HogFunctionScreenFunctionRefetchQuery', { id });
    expect(refetched.node).toMatchObject({ id, status: { name: expect.any(String) } });
  });

  /**
   * Loads page after page from `page` on, as usePaginationFragment's loadNext (or loadPrevious,
   * `backward`) does with the fragment's @refetchable query, until the connection says no more.
   */
  async function loadAll<N>(
    query: string,
    variables: (cursor: string) => Record<string, unknown>,
    field: string,
    page: Connection<N>,
    backward = false,
  ): Promise<{ nodes: N[]; pages: number }> {
    const nodes = page.edges.map((e) => e.node);
    let pages = 1;
    const more = (p: Connection<N>) => (backward ? p.pageInfo.hasPreviousPage : p.pageInfo.hasNextPage);
    while (more(page)) {
      const cursor = backward ? page.pageInfo.startCursor : page.pageInfo.endCursor;
      page = (await run(query, variables(cursor!))).node[field];
      const got = page.edges.map((e) => e.node);
      if (backward) nodes.unshift(...got);
      else nodes.push(...got);
      pages++;
    }
    return { nodes, pages };
  }

  it('pages batch exports both ways and destinations of all three kinds to the end with @connection', async () => {
    h.reset();
    const { project } = await run('BatchExportScreenQuery', { projectId: '1' });
    // One batch export list for the screen's first page and one read whole for the destinations.
    expect(h.upstreamCalls({ path: EXPORTS })).toHaveLength(2);
    expect(project.batchExports.totalCount).toBe(6);
    expect(project.batchExports.edges).toHaveLength(2);

    h.upstream.clearRequests();
    const exportsQuery = 'BatchExportScreenBatchExportsPaginationQuery';
    const forward = await loadAll<DestinationNode>(
      exportsQuery,
      (after) => ({ id: project.id, first: 2, after, last: null, before: null }),
      'batchExports',
      project.batchExports,
    );
    expect(forward.pages).toBe(3);
    expect(forward.nodes).toHaveLength(project.batchExports.totalCount);
    expect(new Set(forward.nodes.map((n) => n.id)).size).toBe(6);
    for (const n of forward.nodes) expect(n.enabled).toBe(!n.paused);
    // One list call a page after the first.
    expect(h.upstreamCalls({ path: EXPORTS })).toHaveLength(2);

    const end = await run(exportsQuery, { id: project.id, first: null, last: 2 });
    const backward = await loadAll<DestinationNode>(
      exportsQuery,
      (before) => ({ id: project.id, first: null, after: null, last: 2, before }),
      'batchExports',
      end.node.batchExports,
      true,
    );
    expect(backward.nodes.map((n) => n.id)).toEqual(forward.nodes.map((n) => n.id));

    const destinations = await loadAll<DestinationNode>(
      'BatchExportScreenDestinationsPaginationQuery',
      (cursor) => ({ id: project.id, count: 40, cursor }),
      'destinations',
      project.destinations,
    );
    expect(destinations.pages).toBe(Math.ceil(project.destinations.totalCount / 40));
    expect(destinations.nodes).toHaveLength(project.destinations.totalCount);
    expect(new Set(destinations.nodes.map((n) => n.id)).size).toBe(destinations.nodes.length);
    const kinds = destinations.nodes.map((n) => n.__typename);
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual([
      'HogFunction',
      'DestinationConfig',
      'BatchExport',
    ]);
    const exports = destinations.nodes.filter((n) => n.__typename === 'BatchExport');
    expect(exports.map((n) => n.id)).toEqual(forward.nodes.map((n) => n.id));
    for (const n of exports)
      expect(n).toMatchObject({ uuid: expect.any(String), destinationType: expect.any(String) });

    const onlyExports = await run('BatchExportScreenDestinationsPaginationQuery', {
      id: project.id,
      count: 40,
      kinds: ['BATCH_EXPORT'],
    });
    expect(
      onlyExports.node.destinations.edges.map((e: { node: DestinationNode }) => e.node.__typename),
    ).toEqual(Array(6).fill('BatchExport'));
  });
});
