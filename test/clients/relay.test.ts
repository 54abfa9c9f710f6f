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
