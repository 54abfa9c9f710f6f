import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Harness, startHarness } from '../support/harness.ts';

const CONFIGS = '/api/projects/1/pipeline_destination_configs/';

const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String) {
  project(projectId: "1") {
    destinationConfigs(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      edges { cursor node { databaseId } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

describe.each(DIALECTS)('destination configs through the gateway, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const total = dialect === 'posthog' ? 150 : 155;
  // biome-ignore lint/suspicious/noExplicitAny: connection answers.
  const page = async (variables: Record<string, unknown>): Promise<any> => {
    const { body } = await h.gql(PAGE, variables);
    expect(body.errors).toBeUndefined();
    return body.data.project.destinationConfigs;
  };
  const ids = (conn: { edges: { node: { databaseId: number } }[] }) =>
    conn.edges.map((e) => e.node.databaseId);

  it('lists 20 by default with totalCount from the upstream count, in the upstream order', async () => {
    const conn = await page({});
    expect(conn.totalCount).toBe(total);
    expect(conn.edges).toHaveLength(20);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const upstream = await fetch(`${h.upstream.url}${CONFIGS}?limit=20`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    const order = ((await upstream.json()) as { results: { id: number }[] }).results.map((c) => c.id);
    expect(ids(conn)).toEqual(order);
  });

  it('walks forward with first/after across every page boundary with no gap or duplicate', async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const conn = await page({ first: 33, after });
      seen.push(...ids(conn));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('walks backward with last/before to the start', async () => {
    const all = ids(await page({ first: 100 })).concat(
      ids(await page({ first: 100, after: (await page({ first: 100 })).pageInfo.endCursor })),
    );
    const seen: number[] = [];
    let before: string | null = null;
    for (;;) {
      const conn = await page({ last: 40, before });
      seen.unshift(...ids(conn));
      if (!conn.pageInfo.hasPreviousPage) break;
      before = conn.pageInfo.startCursor;
    }
    expect(seen).toEqual(all);
  });

  it('answers last without before from the end of the list', async () => {
    const conn = await page({ last: 7 });
    expect(conn.edges).toHaveLength(7);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const upstream = await fetch(`${h.upstream.url}${CONFIGS}?limit=7&offset=${total - 7}`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    const tail = ((await upstream.json()) as { results: { id: number }[] }).results.map((c) => c.id);
    expect(ids(conn)).toEqual(tail);
  });

  it('handles first: 0, first: 100 and an after at the very end', async () => {
    const zero = await page({ first: 0 });
    expect(zero.edges).toEqual([]);
    expect(zero.totalCount).toBe(total);
    expect(zero.pageInfo).toMatchObject({ hasNextPage: true, startCursor: null, endCursor: null });
    const hundred = await page({ first: 100 });
    expect(hundred.edges).toHaveLength(100);
    const rest = await page({ first: 100, after: hundred.pageInfo.endCursor });
    expect(rest.edges).toHaveLength(total - 100);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const beyond = await page({ first: 5, after: rest.pageInfo.endCursor });
    expect(beyond.edges).toEqual([]);
    expect(beyond.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses first or last outside 0..100 with BAD_USER_INPUT and no upstream call', async () => {
    for (const variables of [{ first: 101 }, { first: -1 }, { last: 101 }]) {
      const { body } = await h.gql(PAGE, variables);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0].message).toMatch(/between 0 and 100/);
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('serves an empty list as an empty connection', async () => {
    h.upstream.store.configs.clear();
    const conn = await page({ first: 10 });
    expect(conn).toMatchObject({
      totalCount: 0,
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });

  it('serves every field of a config with the types of the contract', async () => {
    const { body } = await h.gql(`{
      project(projectId: "1") {
        destinationConfig(databaseId: 1) {
          id databaseId plugin enabled order name description deleted filters config error teamId
          pluginInfo deliveryRate24h createdAt updatedAt project { projectId }
        }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const config = body.data.project.destinationConfig;
    expect(config).toMatchObject({ databaseId: 1, plugin: 2, teamId: 1, project: { projectId: '1' } });
    expect(typeof config.deliveryRate24h).toBe('number');
    expect(config.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    if (dialect === 'posthog') {
      expect(config.config).toMatchObject({ s3BucketName: 'events-1' });
      expect(config.pluginInfo).toMatchObject({ id: 2, name: 'S3 Export' });
    } else {
      expect(typeof config.config).toBe('string');
      expect(config.pluginInfo).toBe('S3 Export');
    }
  });

  it('answers null, without an error, for a config the upstream does not have', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfig(databaseId: 99999) { id } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinationConfig).toBeNull();
  });

  it('reads pluginInfo of a listed config from the config itself when the list left it out', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfigs(first: 3) { edges { node { pluginInfo } } } } }',
    );
    expect(body.errors).toBeUndefined();
    for (const edge of body.data.project.destinationConfigs.edges)
      expect(edge.node.pluginInfo).not.toBeNull();
    const retrieves = h.upstreamCalls({ method: 'GET' }).filter((c) => /configs\/\d+\/$/.test(c.path));
    expect(retrieves).toHaveLength(dialect === 'posthog' ? 3 : 0);
  });

  it('answers the frontend as its dialect serves it', async () => {
    const key = dialect === 'posthog' ? 'phx_legacy' : 'phx_full';
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfig(databaseId: 4) { frontend { contentType source config { databaseId } } } } }',
      {},
      key,
    );
    expect(body.errors).toBeUndefined();
    const frontend = body.data.project.destinationConfig.frontend;
    if (dialect === 'posthog') {
      expect(frontend).toMatchObject({ contentType: 'application/javascript; charset=UTF-8', config: null });
      expect(frontend.source).toContain('getFrontendApp');
    } else {
      expect(frontend).toMatchObject({
        contentType: 'application/json',
        source: null,
        config: { databaseId: 4 },
      });
    }
  });

  it('lists projects the key can see and reads a project name', async () => {
    const { body } = await h.gql(
      '{ projects(first: 10) { totalCount edges { node { id projectId name } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.projects.totalCount).toBe(2);
    expect(body.data.projects.edges.map((e: { node: { projectId: string } }) => e.node.projectId)).toEqual([
      '1',
      '2',
    ]);
    expect(h.upstreamCalls()).toHaveLength(1);
    const other = await h.gql(
      '{ projects { edges { node { projectId } } } project(projectId: "@current") { name } }',
      {},
      'phx_other',
    );
    expect(other.body.data).toEqual({
      projects: { edges: [{ node: { projectId: '3' } }] },
      project: { name: 'Other Co. web' },
    });
  });

  it('refuses a project id that is not an integer or @current, with no upstream call', async () => {
    for (const projectId of ['1/../2', '%2e%2e', '1?x=', '@current/..', 'abc', '9'.repeat(40)]) {
      const { body } = await h.gql('query($p: String!) { project(projectId: $p) { name } }', {
        p: projectId,
      });
      expect(body.data.project).toBeNull();
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});
