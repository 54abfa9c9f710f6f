// Hostile queries are refused before any upstream call, with QUERY_TOO_COMPLEX naming the
// measure, its figure and the limit.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

describe('operation limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog', env: { MAX_TOKENS: '3000', MAX_BODY_BYTES: '20000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  async function refused(query: string, measure: string, variables: Record<string, unknown> = {}) {
    const { body } = await h.gql(query, variables);
    expect(body.errors?.[0]?.extensions, JSON.stringify(body).slice(0, 300)).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure,
      figure: expect.any(Number),
      limit: expect.any(Number),
    });
    expect(body.errors[0].extensions.figure).toBeGreaterThan(body.errors[0].extensions.limit);
    expect(body.data ?? null).toBeNull();
    expect(h.upstreamCalls()).toHaveLength(0);
    return body.errors[0];
  }

  it('refuses a query deeper than 12', async () => {
    const deep = `{ project(projectId: "1") { destinationConfigs { edges { node { activity { edges { node {
      destinationConfig { activity { edges { node { destinationConfig { project { name } } } } } } } } } } } } } }`;
    const error = await refused(deep, 'depth');
    expect(error.extensions.limit).toBe(12);
    expect(error.message).toMatch(/the limit is 12/);
  });

  it('refuses a depth bomb hidden in fragments', async () => {
    const query = `
      query { project(projectId: "1") { ...A } }
      fragment A on Project { destinationConfigs { edges { node { ...B } } } }
      fragment B on DestinationConfig { activity { edges { node { destinationConfig { ...C } } } } }
      fragment C on DestinationConfig { activity { edges { node { destinationConfig { project { name } } } } } }`;
    await refused(query, 'depth');
  });

  it('refuses more than 30 aliases', async () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: project(projectId: "1") { projectId }`).join(
      '\n',
    );
    const error = await refused(`{ ${aliases} }`, 'aliases');
    expect(error.extensions).toMatchObject({ figure: 31, limit: 30 });
  });

  it('refuses too many directives', async () => {
    const fields = Array.from({ length: 21 }, () => '__typename @include(if: true)').join(' ');
    await refused(`{ project(projectId: "1") { projectId ${fields} } }`, 'directives');
  });

  it('refuses too many tokens', async () => {
    const fields = Array.from({ length: 3_100 }, () => 'x').join(' ');
    const error = await refused(`{ ${fields} }`, 'tokens');
    expect(error.extensions).toMatchObject({ figure: 3_102, limit: 3_000 });
  });

  it('refuses a body over the size limit with 413', async () => {
    const { status, body } = await h.post(
      JSON.stringify({ query: `{ __typename } #${'x'.repeat(30_000)}` }),
      {
        authorization: 'Bearer phx_full',
      },
    );
    expect(status).toBe(413);
    expect(body.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'bodyBytes',
      limit: 20_000,
    });
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses a chunked body (no Content-Length) over the size limit with 413, counting as it arrives', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(h.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(`{"query":"{ __typename }","x":"`);
      for (let i = 0; i < 30; i++) req.write('x'.repeat(1_000));
      req.end('"}');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errors[0].extensions).toMatchObject({
      measure: 'bodyBytes',
      limit: 20_000,
    });
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses an upstream-call bomb: 10 projects × 100 entries × their configs', async () => {
    const one = (i: number) =>
      `p${i}: project(projectId: "1") { activityLog(first: 100) { edges { node { destinationConfig { name } } } } }`;
    const error = await refused(
      `{ ${Array.from({ length: 10 }, (_, i) => one(i)).join('\n')} }`,
      'upstreamCalls',
    );
    expect(error.extensions.limit).toBe(50);
    // Each: one activity page and one batch of cross-links.
    expect(error.extensions.figure).toBe(10 * (1 + 5));
  });

  it('refuses nested connections that multiply upstream calls', async () => {
    const error = await refused(
      `{ project(projectId: "1") { destinationConfigs(first: 100) { edges { node {
          activity(first: 100) { edges { node { destinationConfig { name } } } } } } } } }`,
      'upstreamCalls',
    );
    expect(error.extensions.figure).toBe(1 + 100 * (1 + 5));
  });

  it('counts `first` from variables, so the same document passes or fails by them', async () => {
    const query = `query($n: Int) { project(projectId: "1") { destinationConfigs(first: $n) { edges { node { activity(first: 2) { edges { node { id } } } } } } } }`;
    await refused(query, 'upstreamCalls', { n: 60 });
    const { body } = await h.gql(query, { n: 5 });
    expect(body.errors).toBeUndefined();
  });

  it('refuses a cost bomb: nested connections multiply', async () => {
    // One upstream call, but a hundred configs × many fields each:
    const query = `{ project(projectId: "1") { destinationConfigs(first: 100) { edges { cursor node {
      id databaseId plugin enabled order name description deleted filters config error teamId createdAt updatedAt } } } } }`;
    const strict = await startHarness({ env: { MAX_COST: '100' } });
    try {
      const { body } = await strict.gql(query);
      expect(body.errors[0].extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'cost',
        limit: 100,
      });
      expect(strict.upstreamCalls()).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('lets introspection (GraphiQL’s, deep by nature) through without a key', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const { body } = await h.gql(getIntrospectionQuery(), {}, null);
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.types.length).toBeGreaterThan(20);
  });

  it('lets the combined view through', async () => {
    const { EXAMPLE_QUERY } = await import('../../src/server/example-query.ts');
    const { body } = await h.gql(EXAMPLE_QUERY, {}, 'phx_legacy');
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinations.edges).toHaveLength(5);
  });
});
