// Hostile input: crafted project ids, forged global ids, tampered cursors, and upstream links
// that name another host. None may reach the upstream as a path, and no link is ever followed.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';

const INJECTIONS = [
  '1/../2',
  '%2e%2e',
  '..',
  '1?x=',
  '1#',
  '@current/..',
  '@current%2F..',
  '1/activity_log',
  ' 1',
  '1\n',
  '١',
  '9'.repeat(19),
  'x'.repeat(100_000),
];

describe('hostile input', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog', env: { MAX_BODY_BYTES: '500000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('refuses path-injection project ids everywhere, with no upstream call', async () => {
    for (const projectId of INJECTIONS) {
      const read = await h.gql(
        'query($p: String!) { project(projectId: $p) { name activityLog { edges { cursor } } } }',
        {
          p: projectId,
        },
      );
      expect(read.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const write = await h.gql(
        'mutation($p: String!) { createDestinationConfig(input: { projectId: $p, plugin: 1, order: 1 }) { clientMutationId } }',
        { p: projectId },
      );
      expect(write.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(read.body).length).toBeLessThan(2_000);
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses forged global ids with no upstream call', async () => {
    const forged = [
      Buffer.from('DestinationConfig:1/../2:5').toString('base64'),
      Buffer.from('DestinationConfig:1:5/frontend').toString('base64'),
      Buffer.from('DestinationConfig:1:5?token=x').toString('base64'),
      Buffer.from('DestinationConfig:@current/..:5').toString('base64'),
      Buffer.from('Project:1/../../admin').toString('base64'),
      Buffer.from('DestinationConfig:1:-5').toString('base64'),
      Buffer.from('DestinationConfig:1:2147483648').toString('base64'),
    ];
    for (const id of forged) {
      const { body } = await h.gql(
        'mutation($id: ID!) { deleteDestinationConfig(input: { id: $id }) { deletedId } }',
        { id },
      );
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('answers null for a well-formed id of a project the key cannot see, after one upstream call', async () => {
    const { body } = await h.gql('query($id: ID!) { node(id: $id) { id } }', { id: configId('3', 162) });
    expect(body).toEqual({ data: { node: null } });
    expect(h.upstreamCalls()).toHaveLength(1);
    const other = await h.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: configId('3', 162) },
      'phx_other',
    );
    expect(other.body.data.node).toEqual({ id: configId('3', 162) });
  });

  it('refuses tampered and foreign cursors on every connection, with no upstream call', async () => {
    const configs = await h.gql(
      '{ project(projectId: "1") { destinationConfigs(first: 2) { pageInfo { endCursor } } activityLog(first: 2) { pageInfo { endCursor } } } }',
    );
    const configCursor: string = configs.body.data.project.destinationConfigs.pageInfo.endCursor;
    const activityCursor: string = configs.body.data.project.activityLog.pageInfo.endCursor;
    h.upstream.clearRequests();
    const cursorOf = (fields: unknown) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    const attempts = [
      { field: 'destinationConfigs', after: activityCursor },
      { field: 'destinationConfigs', after: `${configCursor}.` },
      { field: 'destinationConfigs', after: `${configCursor}A` },
      { field: 'destinationConfigs', after: Buffer.from('offset:5').toString('base64') },
      { field: 'destinationConfigs', after: cursorOf(['configs:1', -4]) },
      { field: 'destinationConfigs', after: cursorOf(['configs:1', 1.5]) },
      { field: 'destinationConfigs', after: cursorOf(['configs:1', '5']) },
      { field: 'destinationConfigs', after: cursorOf({ k: 'configs:1', o: 5 }) },
      { field: 'destinationConfigs', after: cursorOf(['configs:@current', 5]) },
      { field: 'activityLog', after: configCursor },
      { field: 'activityLog', after: `${activityCursor}x` },
    ];
    for (const { field, after } of attempts) {
      const { body: answer } = await h.gql(
        `query($after: String) { project(projectId: "1") { ${field}(after: $after) { edges { cursor } } } }`,
        {
          after,
        },
      );
      expect(answer.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    }
    const otherProject = await h.gql(
      'query($after: String) { project(projectId: "2") { destinationConfigs(after: $after) { edges { cursor } } } }',
      {
        after: configCursor,
      },
    );
    expect(otherProject.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('sends an upstream cursor only URL-encoded, as the cursor parameter', async () => {
    const first = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 100) { pageInfo { endCursor } } } }',
    );
    await h.gql(
      'query($after: String) { project(projectId: "1") { activityLog(first: 10, after: $after) { edges { cursor } } } }',
      {
        after: first.body.data.project.activityLog.pageInfo.endCursor,
      },
    );
    const withCursor = h.upstreamCalls().filter((c) => c.query.includes('cursor='));
    expect(withCursor.length).toBeGreaterThan(0);
    for (const call of withCursor) {
      expect(call.path).toBe('/api/projects/1/activity_log/');
      const params = new URLSearchParams(call.query);
      expect([...params.keys()]).toEqual(['cursor']);
      expect(encodeURIComponent(params.get('cursor')!).length).toBeGreaterThan(0);
    }
  });
});

describe('links that name another host', () => {
  const seen: IncomingMessage[] = [];
  const listener = createServer((req, res) => {
    seen.push(req);
    res.end('{}');
  });
  let h: Harness;
  beforeAll(async () => {
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const elsewhere = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    h = await startHarness({ dialect: 'posthog', upstream: { publicBase: elsewhere } });
  });
  afterAll(async () => {
    await h.close();
    await new Promise<void>((r) => listener.close(() => r()));
  });

  it('walks configs and activity through such links without ever contacting that host', async () => {
    const nextLink = await fetch(`${h.upstream.url}/api/projects/1/pipeline_destination_configs/`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    expect(((await nextLink.json()) as { next: string }).next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    seen.length = 0;
    let after: string | null = null;
    let entries = 0;
    do {
      const { body } = await h.gql(
        'query($after: String) { project(projectId: "1") { activityLog(first: 100, after: $after) { edges { cursor } pageInfo { hasNextPage endCursor } } } }',
        { after },
      );
      expect(body.errors).toBeUndefined();
      const conn = body.data.project.activityLog;
      entries += conn.edges.length;
      after = conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null;
    } while (after);
    expect(entries).toBe(260);
    const ids = await h.gql(
      '{ project(projectId: "1") { destinationConfigs(last: 10) { totalCount } } nodes(ids: ["' +
        configId('1', 150) +
        '", "' +
        configId('1', 149) +
        '", "' +
        configId('1', 148) +
        '"]) { id } }',
    );
    expect(ids.body.errors).toBeUndefined();
    expect(seen).toHaveLength(0);
  });
});
