// One global id per object whatever path reached it, `@current` never inside an id or a cursor,
// and cursors that need no secret: they work in another gateway process over the same upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configGlobalId, decodeGlobalId, shortBase64 } from '../../src/schema/global-id.ts';
import {
  configId,
  DIALECTS,
  type Harness,
  projectGlobalId,
  startGatewayServer,
  startHarness,
} from '../support/harness.ts';

const CURRENT_PROJECT_PATH = '/api/projects/@current/';

describe.each(DIALECTS)('one id per object, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const VIEW = (projectId: string) => `{
    project(projectId: "${projectId}") {
      id
      destinationConfig(databaseId: 1) { id project { id } }
      destinationConfigs(first: 3) { edges { cursor node { id } } pageInfo { startCursor endCursor } }
      activityLog(first: 3, scope: "PluginConfig") {
        edges { cursor node { destinationConfig { id } } }
        pageInfo { startCursor endCursor }
      }
    }
  }`;

  it('gives a config and a project the same id through "1" and through "@current"', async () => {
    const [numeric, current] = await Promise.all([h.gql(VIEW('1')), h.gql(VIEW('@current'))]);
    expect(numeric.body.errors).toBeUndefined();
    expect(current.body.errors).toBeUndefined();
    expect(current.body.data).toEqual(numeric.body.data);
    expect(current.body.data.project.id).toBe(projectGlobalId('1'));
    expect(current.body.data.project.destinationConfig).toEqual({
      id: configId('1', 1),
      project: { id: projectGlobalId('1') },
    });
  });

  it('writes no "@current" into any id or cursor', async () => {
    const { body } = await h.gql(VIEW('@current'));
    const opaque = JSON.stringify(body.data).match(/"(id|cursor|startCursor|endCursor)":"[^"]+"/g) ?? [];
    expect(opaque.length).toBeGreaterThan(10);
    for (const pair of opaque) {
      const value = pair.split('":"')[1]!.slice(0, -1);
      const text = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
      expect(text.toString()).not.toContain('@current');
    }
  });

  it('resolves "@current" once per request, and only when an id or a cursor needs it', async () => {
    await h.gql(VIEW('@current'));
    // The project's own `id` resolves first, before any config answer has said what it stands for.
    expect(h.upstreamCalls({ path: CURRENT_PROJECT_PATH })).toHaveLength(1);

    h.upstream.clearRequests();
    const plain = await h.gql(
      '{ project(projectId: "@current") { destinationConfig(databaseId: 1) { name } } }',
    );
    expect(plain.body.data.project.destinationConfig.name).toBe('S3 Export #1');
    expect(h.upstreamCalls()).toHaveLength(1);

    // A config answer read through @current says which project it is (team_id): no extra call.
    h.upstream.clearRequests();
    const listed = await h.gql(
      '{ project(projectId: "@current") { destinationConfigs(first: 2) { edges { cursor node { id } } } } }',
    );
    const firstId = listed.body.data.project.destinationConfigs.edges[0].node.id;
    expect(Buffer.from(firstId, 'base64').toString()).toMatch(/^DestinationConfig:1:\d+$/);
    expect(h.upstreamCalls({ path: CURRENT_PROJECT_PATH })).toHaveLength(0);
  });

  it('still decodes ids issued in the old "@current" form, and answers with the numeric id', async () => {
    const { body } = await h.gql(
      'query($id: ID!) { node(id: $id) { id ... on DestinationConfig { databaseId } } }',
      {
        id: configId('@current', 2),
      },
    );
    expect(body).toEqual({ data: { node: { id: configId('1', 2), databaseId: 2 } } });
  });

  it('answers node of a project that does not exist, or that the key cannot see, with null', async () => {
    const query = 'query($id: ID!) { node(id: $id) { id ... on Project { name } } }';
    const missing = await h.gql(query, { id: projectGlobalId('999') });
    expect(missing.body).toEqual({ data: { node: null } });
    const foreign = await h.gql(query, { id: projectGlobalId('3') });
    expect(foreign.body).toEqual({ data: { node: null } });
    const theirs = await h.gql(query, { id: projectGlobalId('3') }, 'phx_other');
    expect(theirs.body.data.node.id).toBe(projectGlobalId('3'));
    const ours = await h.gql(query, { id: projectGlobalId('@current') });
    expect(ours.body.data.node).toEqual({ id: projectGlobalId('1'), name: expect.any(String) });
  });

  it('shows a change made through an id read under "1" in a list read under "@current"', async () => {
    const LIST =
      '{ project(projectId: "@current") { destinationConfigs(first: 5) { edges { node { id enabled } } } } }';
    const before = await h.gql(LIST);
    const { databaseId } = (
      await h.gql('query($id: ID!) { node(id: $id) { ... on DestinationConfig { databaseId } } }', {
        id: before.body.data.project.destinationConfigs.edges[2].node.id,
      })
    ).body.data.node;
    const read = await h.gql(
      `{ project(projectId: "1") { destinationConfig(databaseId: ${databaseId}) { id enabled } } }`,
    );
    const { id, enabled } = read.body.data.project.destinationConfig;
    const update = await h.gql(
      'mutation($id: ID!, $enabled: Boolean!) { updateDestinationConfig(input: { id: $id, enabled: $enabled }) { destinationConfig { id enabled } } }',
      { id, enabled: !enabled },
    );
    expect(update.body.data.updateDestinationConfig.destinationConfig).toEqual({ id, enabled: !enabled });
    const after = await h.gql(LIST);
    expect(after.body.data.project.destinationConfigs.edges[2].node).toEqual({ id, enabled: !enabled });
  });
});

describe('cursors without a secret', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('continue in another gateway process over the same upstream (a restart, a replica)', async () => {
    const pageOf = (connection: string) => (after: string | null, url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
        body: JSON.stringify({
          query: `query($after: String) { project(projectId: "1") { ${connection}(first: 10, after: $after) { edges { node { id } } pageInfo { endCursor } } } }`,
          variables: { after },
        }),
      }).then((r) => r.json());
    const configsOf = pageOf('destinationConfigs');
    const activityOf = pageOf('activityLog');
    const replica = await startGatewayServer(h.upstream.url);
    try {
      const configs = await configsOf(null, h.url);
      const activity = await activityOf(null, h.url);
      const configCursor = configs.data.project.destinationConfigs.pageInfo.endCursor;
      const activityCursor = activity.data.project.activityLog.pageInfo.endCursor;
      const [here, there] = await Promise.all([
        configsOf(configCursor, h.url),
        configsOf(configCursor, replica.url),
      ]);
      expect(there).toEqual(here);
      expect(there.data.project.destinationConfigs.edges[0].node.id).not.toBe(
        configs.data.project.destinationConfigs.edges[0].node.id,
      );
      const [hereLog, thereLog] = await Promise.all([
        activityOf(activityCursor, h.url),
        activityOf(activityCursor, replica.url),
      ]);
      expect(thereLog).toEqual(hereLog);
      expect(thereLog.data.project.activityLog.edges).toHaveLength(10);
    } finally {
      await replica.close();
    }
  });
});

describe('global ids encoded by hand', () => {
  it('are the base64 Buffer writes of the id text, every length and character class', () => {
    const texts = [
      '',
      'é',
      '1:€',
      '@current:1',
      ...Array.from({ length: 30 }, (_, n) => '7:'.padEnd(n, '0')),
    ];
    for (let code = 0; code < 0x80; code++) texts.push(`1:${String.fromCharCode(code)}`);
    for (const text of texts) expect(shortBase64(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
    for (const [projectId, id] of [
      ['1', 1],
      ['2', 60],
      ['123456789', 2147483647],
    ] as const) {
      const encoded = configGlobalId(projectId, id);
      expect(encoded).toBe(Buffer.from(`DestinationConfig:${projectId}:${id}`).toString('base64'));
      expect(decodeGlobalId(encoded)).toEqual({ typename: 'DestinationConfig', projectId, databaseId: id });
    }
  });
});
