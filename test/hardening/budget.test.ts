// The upstream-call budget counts what the loaders really do: ordinary screens (a page of 100
// entries with their configs, a Relay screen with two 50-item lists) run, and the cross-link costs
// at most its distinct configs + 2 calls. When the run-time backstop trips, only the fields past
// it fail and the rest of the answer arrives.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';

describe.each(['spec', 'posthog'] as const)('the upstream-call budget, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const key = dialect === 'posthog' ? 'phx_legacy' : 'phx_full';

  it('runs a page of 100 entries with their configs, at most distinct configs + 2 calls for the cross-link', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 100) { edges { node { itemId scope destinationConfig { databaseId name } } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const edges: {
      node: { itemId: string; scope: string; destinationConfig: { databaseId: number } | null };
    }[] = body.data.project.activityLog.edges;
    expect(edges).toHaveLength(100);
    const distinct = new Set(edges.filter((e) => e.node.scope === 'PluginConfig').map((e) => e.node.itemId));
    expect(distinct.size).toBeGreaterThan(3);
    for (const { node } of edges) {
      if (node.scope === 'PluginConfig') expect(node.destinationConfig?.databaseId).toBe(Number(node.itemId));
    }
    const crossLink = h.upstreamCalls().filter((c) => !c.path.endsWith('/activity_log/'));
    expect(crossLink.length).toBeLessThanOrEqual(distinct.size + 2);
  });

  it('runs a Relay screen with two 50-item pagination lists', async () => {
    const { body } = await h.gql(
      `query Screen {
        project(projectId: "1") { id name ...Configs ...Log }
      }
      fragment Configs on Project {
        destinationConfigs(first: 50) { edges { cursor node { id databaseId name enabled __typename } } pageInfo { endCursor hasNextPage } }
      }
      fragment Log on Project {
        activityLog(first: 50) { edges { cursor node { id activity createdAt destinationConfig { id name } __typename } } pageInfo { endCursor hasNextPage } }
      }`,
      {},
      key,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinationConfigs.edges).toHaveLength(50);
    expect(body.data.project.activityLog.edges).toHaveLength(50);
  });
});

describe('the run-time backstop', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog', env: { MAX_UPSTREAM_CALLS: '7' } });
  });
  afterAll(() => h.close());

  it('fails only the fields past the budget when a batch costs more than estimated', async () => {
    // Five soft-deleted configs: PostHog lists none of them, so each needs a retrieve of its own.
    for (const id of [21, 22, 23, 24, 25]) {
      const { body } = await h.gql(
        'mutation($id: ID!) { updateDestinationConfig(input: { id: $id, deleted: true }) { destinationConfig { deleted } } }',
        { id: configId('1', id) },
      );
      expect(body.errors).toBeUndefined();
    }
    h.upstream.clearRequests();
    const { body } = await h.gql(
      '{ project(projectId: "1") { name activityLog(first: 5, scope: "PluginConfig") { edges { node { itemId destinationConfig { databaseId } } } } } }',
    );
    // Estimated 1 + 1 + 5 = 7; spent: the project, the page, two list pages, then retrieves.
    expect(h.upstreamCalls()).toHaveLength(7);
    expect(body.data.project.name).toBe('Hedgebox (production)');
    const edges: { node: { itemId: string; destinationConfig: { databaseId: number } | null } }[] =
      body.data.project.activityLog.edges;
    expect(edges.map((e) => e.node.itemId).sort()).toEqual(['21', '22', '23', '24', '25']);
    const answered = edges.filter((e) => e.node.destinationConfig !== null);
    expect(answered.length).toBe(3);
    for (const e of answered) expect(e.node.destinationConfig!.databaseId).toBe(Number(e.node.itemId));
    expect(body.errors).toHaveLength(2);
    for (const error of body.errors) {
      expect(error.extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'upstreamCalls',
        limit: 7,
      });
      expect(error.path.slice(-1)).toEqual(['destinationConfig']);
    }
  });
});
