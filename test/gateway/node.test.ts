import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, DIALECTS, type Harness, projectGlobalId, startHarness } from '../support/harness.ts';

const RETRIEVE = /\/pipeline_destination_configs\/\d+\/$/;

describe.each(DIALECTS)('global ids, node and nodes, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('round-trips a config id through node', async () => {
    const listed = await h.gql(
      '{ project(projectId: "1") { id destinationConfigs(first: 1) { edges { node { id databaseId } } } } }',
    );
    const { id, databaseId } = listed.body.data.project.destinationConfigs.edges[0].node;
    expect(id).toBe(configId('1', databaseId));
    const { body } = await h.gql(
      'query($id: ID!) { node(id: $id) { id ... on DestinationConfig { databaseId } } }',
      { id },
    );
    expect(body.data.node).toEqual({ id, databaseId });
    const project = await h.gql(
      'query($id: ID!) { node(id: $id) { id ... on Project { projectId name } } }',
      {
        id: listed.body.data.project.id,
      },
    );
    expect(project.body.data.node).toEqual({
      id: projectGlobalId('1'),
      projectId: '1',
      name: 'Hedgebox (production)',
    });
  });

  it('refuses malformed and foreign ids with BAD_USER_INPUT and no upstream call', async () => {
    const bad = [
      'nope',
      Buffer.from('User:1').toString('base64'),
      Buffer.from('DestinationConfig:1:0').toString('base64'),
      Buffer.from('DestinationConfig:1/../2:5').toString('base64'),
      Buffer.from('DestinationConfig:1:99999999999').toString('base64'),
      `${configId('1', 5)}=`,
      'x'.repeat(10_000),
    ];
    for (const id of bad) {
      const { body } = await h.gql('query($id: ID!) { node(id: $id) { id } }', { id });
      expect(body.data.node).toBeNull();
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('answers null for an id the upstream does not have, or of another project', async () => {
    const { body } = await h.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [configId('1', 99999), configId('2', 1)],
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([null, null]);
  });

  it('answers each id of nodes on its own, in order', async () => {
    const { body } = await h.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [configId('1', 2), 'garbage', projectGlobalId('2')],
    });
    expect(body.data.nodes).toEqual([{ id: configId('1', 2) }, null, { id: projectGlobalId('2') }]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ path: ['nodes', 1], extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('reads many configs of one project from list pages when that is fewer calls', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => configId('1', i + 1));
    const { body } = await h.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on DestinationConfig { databaseId name } } }',
      {
        ids,
      },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes.map((n: { databaseId: number } | null) => n?.databaseId ?? null)).toEqual(
      Array.from({ length: 30 }, (_, i) => (dialect === 'posthog' && (i + 1) % 31 === 0 ? null : i + 1)),
    );
    const lists = h.upstreamCalls({ path: '/api/projects/1/pipeline_destination_configs/' });
    const retrieves = h.upstreamCalls().filter((c) => RETRIEVE.test(c.path));
    // The spec dialect lists by id (all 30 on page one); PostHog by order (spread over both pages).
    expect(lists).toHaveLength(dialect === 'spec' ? 1 : 2);
    expect(retrieves).toHaveLength(0);
  });

  it('retrieves each config instead when the selection needs a field lists leave out', async () => {
    const ids = Array.from({ length: 4 }, (_, i) => configId('1', i + 1));
    await h.gql('query($ids: [ID!]!) { nodes(ids: $ids) { ... on DestinationConfig { pluginInfo } } }', {
      ids,
    });
    expect(h.upstreamCalls({ path: '/api/projects/1/pipeline_destination_configs/' })).toHaveLength(0);
    expect(h.upstreamCalls().filter((c) => RETRIEVE.test(c.path))).toHaveLength(4);
  });
});
