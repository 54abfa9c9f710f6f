// The Relay compiler (its binary ships in the relay-compiler package) compiles the operations of
// test/clients/relay/ against schema.graphql: @refetchable fragments, @connection pagination on
// both connections, a mutation. The query texts it generates then run against the gateway with
// no errors, the pagination and refetch queries included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';
import { compileWithRelay } from './relay/compile.ts';

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
});
