// Upstream request counts where loading behaviour matters, read from the reference upstream's
// request log; and which key each upstream request carried.

import type { RequestLogEntry } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';
import { until } from '../support/wait.ts';

const RETRIEVE = /\/pipeline_destination_configs\/\d+\/$/;
const retrieves = (calls: RequestLogEntry[]) =>
  calls.filter((c) => c.method === 'GET' && RETRIEVE.test(c.path));

describe('per-request loading', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog' });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.reset();
    h.upstream.faults.latency = { latencyMs: 0, jitterMs: 0 };
  });

  it('reads a config asked for twice in one query once', async () => {
    const { body } = await h.gql(`{
      a: project(projectId: "1") { destinationConfig(databaseId: 5) { name } }
      b: project(projectId: "1") { destinationConfig(databaseId: 5) { order pluginInfo } }
      c: node(id: "${configId('1', 5)}") { id }
    }`);
    expect(body.errors).toBeUndefined();
    expect(h.upstreamCalls()).toHaveLength(1);
  });

  it('answers node of listed configs from the list, with no extra call', async () => {
    const listing = await fetch(
      `${h.upstream.url}/api/projects/1/pipeline_destination_configs/?limit=10&offset=0`,
      {
        headers: { authorization: 'Bearer phx_full' },
      },
    );
    const firstTen = ((await listing.json()) as { results: { id: number }[] }).results.map((c) => c.id);
    h.upstream.clearRequests();
    const { body } = await h.gql(
      `query($ids: [ID!]!) {
        project(projectId: "1") { destinationConfigs(first: 10) { edges { node { databaseId } } } }
        nodes(ids: $ids) { ... on DestinationConfig { databaseId name enabled deliveryRate24h } }
      }`,
      { ids: firstTen.map((id) => configId('1', id)) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(firstTen);
    expect(h.upstreamCalls()).toHaveLength(1);
  });

  /** `count` activity entries, newest first, about the configs `ids` in turn. */
  const pushConfigActivity = (ids: number[], count: number) => {
    const store = h.upstream.store;
    for (let n = 0; n < count; n++) {
      const id = ids[n % ids.length]!;
      store.pushActivity({
        projectId: 1,
        userId: 1,
        is_system: false,
        activity: 'updated',
        scope: 'PluginConfig',
        item_id: String(id),
        detail: { id, changes: null },
        createdAtMicros: store.nowMicros(),
      });
    }
  };

  it('reads 30 activity entries about 3 configs with at most 3 calls, and none for listed ones', async () => {
    pushConfigActivity([11, 12, 13], 30);
    const query = `{ project(projectId: "1") { activityLog(first: 30) { edges { node { itemId destinationConfig { databaseId name } } } } } }`;
    const { body } = await h.gql(query);
    expect(body.errors).toBeUndefined();
    for (const { node } of body.data.project.activityLog.edges)
      expect(node.destinationConfig.databaseId).toBe(Number(node.itemId));
    // Three configs of one project: one list page is fewer calls than a retrieve each.
    const crossLink = h.upstreamCalls().filter((c) => !c.path.endsWith('/activity_log/'));
    expect(crossLink.length).toBeLessThanOrEqual(3);
    expect(crossLink).toEqual([
      expect.objectContaining({ path: '/api/projects/1/pipeline_destination_configs/' }),
    ]);

    h.upstream.clearRequests();
    const listing = await fetch(
      `${h.upstream.url}/api/projects/1/pipeline_destination_configs/?limit=100&offset=0`,
      {
        headers: { authorization: 'Bearer phx_full' },
      },
    );
    const listedIds = ((await listing.json()) as { results: { id: number }[] }).results.map((c) => c.id);
    expect(listedIds).toEqual(expect.arrayContaining([11, 12, 13]));
    h.upstream.clearRequests();
    const both = await h.gql(`{
      project(projectId: "1") {
        destinationConfigs(first: 100) { totalCount }
        activityLog(first: 30) { edges { node { destinationConfig { name } } } }
      }
    }`);
    expect(both.body.errors).toBeUndefined();
    expect(retrieves(h.upstreamCalls())).toHaveLength(0);
  });

  it('parses from a list page only the configs a cross-link names: a malformed neighbour costs nothing', async () => {
    // Config 14 is in the same list page, sent with a plugin id that is not an integer.
    const { store } = h.upstream;
    const broken = store.configs.get(14)!;
    store.plugins.set('not an id' as unknown as number, store.plugins.get(broken.plugin)!);
    Object.assign(broken, { plugin: 'not an id' });
    pushConfigActivity([11, 12, 13], 30);
    const crossLink = (first: number) =>
      h.gql(`{ project(projectId: "1") { activityLog(first: ${first}) {
        edges { node { itemId destinationConfig { databaseId } } } } } }`);
    const { body } = await crossLink(30);
    expect(body.errors).toBeUndefined();
    // One list page, no retrieve: had the page been parsed whole, config 14 would have failed it
    // and each of the three would have been retrieved alone.
    expect(h.upstreamCalls().map((c) => c.path)).toEqual([
      '/api/projects/1/activity_log/',
      '/api/projects/1/pipeline_destination_configs/',
    ]);

    // Named itself, config 14 is retrieved (as the page failed to give it) and fails alone.
    h.upstream.clearRequests();
    pushConfigActivity([14], 1);
    const withBroken = await crossLink(31);
    const edges = withBroken.body.data.project.activityLog.edges;
    expect(edges[0].node).toEqual({ itemId: '14', destinationConfig: null });
    expect(
      edges.slice(1).every((e: { node: { destinationConfig: unknown } }) => e.node.destinationConfig),
    ).toBe(true);
    expect(withBroken.body.errors).toEqual([
      expect.objectContaining({
        path: ['project', 'activityLog', 'edges', 0, 'node', 'destinationConfig'],
        extensions: expect.objectContaining({ code: 'UPSTREAM_UNAVAILABLE' }),
      }),
    ]);
    expect(retrieves(h.upstreamCalls()).map((c) => c.path)).toEqual([
      '/api/projects/1/pipeline_destination_configs/14/',
    ]);
  });

  it('serves the combined view over two projects with one call per resource, all in flight together', async () => {
    // A key the upstream has accepted: a key's first call goes alone (upstream/keys/admission.ts).
    await h.gql('{ project(projectId: "1") { name } }', {}, 'phx_legacy');
    h.upstream.clearRequests();
    // Each call held upstream until all eight are: then they were all in flight at once.
    const upstream = holdRequests(h.upstream);
    const view = (projectId: string) => `project(projectId: "${projectId}") {
      name
      destinationConfigs(first: 5) { totalCount edges { node { name enabled deliveryRate24h } } }
      activityLog(first: 5) { edges { node { activity user { email } } } }
      importantChanges { lastRead entries { activity } }
    }`;
    const answer = h.gql(`{ one: ${view('1')} two: ${view('2')} }`, {}, 'phx_legacy');
    await until(() => upstream.held() >= 8, 'eight calls upstream at once');
    upstream.release();
    const { body } = await answer;
    expect(body.errors).toBeUndefined();
    const calls = h.upstreamCalls();
    const resources = calls.map((c) => `${c.path}?${c.query}`);
    expect(calls).toHaveLength(8);
    expect(new Set(resources).size).toBe(8);
  });

  it('reads an activity page once even when a field asks for it again in a later turn', async () => {
    const alone = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 30) { edges { node { id } } } } }',
    );
    const expected = alone.body.data.project.activityLog.edges.map(
      (e: { node: { id: string } }) => e.node.id,
    );
    expect(expected).toHaveLength(30);
    h.upstream.clearRequests();
    // The config is answered later, so the nested list reads the same page again: the entries
    // the first field did not reach are located and parsed then, from the page's kept bytes.
    h.upstream.faults.add({ path: `/${RETRIEVE.source}/`, action: { kind: 'delay', ms: 150 } });
    const { body } = await h.gql(`{ project(projectId: "1") {
      activityLog(first: 1) { edges { node { id } } }
      destinationConfig(databaseId: 5) { project { activityLog(first: 30) { edges { node { id } } } } }
    } }`);
    expect(body.errors).toBeUndefined();
    const nested = body.data.project.destinationConfig.project.activityLog.edges;
    expect(nested.map((e: { node: { id: string } }) => e.node.id)).toEqual(expected);
    expect(body.data.project.activityLog.edges[0].node.id).toBe(expected[0]);
    const calls = h.upstreamCalls().map((c) => c.path);
    expect(calls.filter((path) => path === '/api/projects/1/activity_log/')).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('reads a failing retrieve once when two fields need it: both get its error, no second call', async () => {
    h.upstream.faults.add({ path: `/${RETRIEVE.source}/`, action: { kind: 'status', status: 404 } });
    // A list answer carries no plugin_info: each field's pluginInfo is a retrieve of the config.
    const { body } = await h.gql(`{ project(projectId: "1") {
      a: destinationConfigs(first: 1) { edges { node { pluginInfo } } }
      b: destinationConfigs(first: 1) { edges { node { name pluginInfo } } }
    } }`);
    expect(body.errors).toHaveLength(2);
    const [first, second] = body.errors;
    expect(first.extensions.code).toBe(second.extensions.code);
    expect(first.message).toBe(second.message);
    expect(body.data.project.b.edges[0].node.name).toEqual(expect.any(String));
    const calls = h.upstreamCalls();
    expect(calls.filter((c) => c.path.endsWith('/pipeline_destination_configs/'))).toHaveLength(1);
    expect(retrieves(calls)).toHaveLength(1);
  });

  it('keeps two callers apart: each gets what its key may see, and the upstream receives each one’s key', async () => {
    const query =
      '{ projects { edges { node { projectId } } } project(projectId: "@current") { destinationConfigs(first: 1) { totalCount } } }';
    const [full, other] = await Promise.all([h.gql(query, {}, 'phx_full'), h.gql(query, {}, 'phx_other')]);
    expect(full.body.data).toEqual({
      projects: { edges: [{ node: { projectId: '1' } }, { node: { projectId: '2' } }] },
      project: { destinationConfigs: { totalCount: 150 } },
    });
    expect(other.body.data).toEqual({
      projects: { edges: [{ node: { projectId: '3' } }] },
      project: { destinationConfigs: { totalCount: 4 } },
    });
    const keys = h.upstreamCalls().map((c) => c.authorization);
    expect(keys.filter((k) => k === 'Bearer phx_full')).toHaveLength(2);
    expect(keys.filter((k) => k === 'Bearer phx_other')).toHaveLength(2);
  });

  it('forwards the Authorization header as PostHog reads it, `Bearer <key>`, however it was spelt', async () => {
    await h.post(JSON.stringify({ query: '{ project(projectId: "1") { name } }' }), {
      authorization: 'bearer   phx_full',
    });
    expect(h.upstreamCalls()[0]!.authorization).toBe('Bearer phx_full');
  });
});
