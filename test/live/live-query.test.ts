// @live queries with the subscription clients: a live config list is pushed again with the new
// value after an update through the gateway (at once: the poll interval here is a minute), and
// another key's live query is not re-run by it. Each re-run is a fresh round: it reads the
// upstream again, with its own key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const LIVE = `query Configs($projectId: String!) @live {
  project(projectId: $projectId) { destinationConfigs(first: 3) { edges { node { id databaseId name } } } }
}`;
const UPDATE = `mutation($input: UpdateDestinationConfigInput!) {
  updateDestinationConfig(input: $input) { destinationConfig { id name } }
}`;

describe.each<Transport>(['sse', 'ws'])('@live over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { LIVE_QUERY_POLL_MS: '60000' } });
  });
  afterAll(() => h.close());

  it('pushes the list again after an update through the gateway, and does not re-run another key’s', async () => {
    h.reset();
    const mine = subscribe(h, transport, 'phx_full', LIVE, { projectId: '1' });
    const theirs = subscribe(h, transport, 'phx_other', LIVE, { projectId: '3' });
    const first = await mine.next();
    expect(first.value.errors).toBeUndefined();
    const edges = first.value.data.project.destinationConfigs.edges;
    expect(edges).toHaveLength(3);
    expect((await theirs.next()).value.data.project.destinationConfigs.edges.length).toBeGreaterThan(0);
    const byKey = (key: string) => h.upstreamCalls().filter((c) => c.authorization === `Bearer ${key}`);
    const theirCalls = byKey('phx_other').length;
    const myReads = byKey('phx_full').length;

    const target = edges[1].node;
    const renamed = `${target.name} (live ${transport})`;
    const update = await h.gql(UPDATE, { input: { id: target.id, name: renamed } });
    expect(update.body.errors).toBeUndefined();
    const pushed = await mine.next();
    expect(pushed.done).toBe(false);
    expect(pushed.value.data.project.destinationConfigs.edges[1].node).toEqual({ ...target, name: renamed });
    // The re-run read the upstream anew (no loader cache carried over), with its own key.
    expect(byKey('phx_full').length).toBeGreaterThanOrEqual(myReads + 2);
    await settle(200);
    expect(byKey('phx_other')).toHaveLength(theirCalls);

    await mine.return();
    await theirs.return();
    mine.dispose();
    theirs.dispose();
  });
});

describe('@live re-runs on its interval', () => {
  it('re-runs every LIVE_QUERY_POLL_MS and pushes only a changed answer', async () => {
    const h = await startHarness({ env: { LIVE_QUERY_POLL_MS: '100' } });
    try {
      const live = subscribe(h, 'sse', 'phx_full', LIVE, { projectId: '1' });
      const first = await live.next();
      const target = first.value.data.project.destinationConfigs.edges[0].node;
      // At least three rounds run, and none is pushed: nothing changed.
      const reads = () => h.upstreamCalls().filter((c) => c.method === 'GET').length;
      await until(() => reads() >= 3, 'three rounds');
      // A change made outside the gateway (straight to the upstream) arrives with the next round.
      const next = live.next();
      h.upstream.store.configs.get(target.databaseId)!.name = 'Changed upstream';
      const pushed = await next;
      expect(pushed.value.data.project.destinationConfigs.edges[0].node.name).toBe('Changed upstream');
      await live.return();
      live.dispose();
    } finally {
      await h.close();
    }
  });
});

describe('@live invalidation by what was read', () => {
  it('re-runs a live query of one config after an update of that config, not after one of another', async () => {
    const h = await startHarness({ env: { LIVE_QUERY_POLL_MS: '60000' } });
    try {
      const ONE = `query One($id: Int!) @live {
        project(projectId: "1") { destinationConfig(databaseId: $id) { id name } }
      }`;
      const live = subscribe(h, 'sse', 'phx_full', ONE, { id: 3 });
      const first = await live.next();
      const config3 = first.value.data.project.destinationConfig;
      const other = (await h.gql('{ project(projectId: "1") { destinationConfig(databaseId: 4) { id } } }'))
        .body.data.project.destinationConfig;
      const reads = () =>
        h.upstreamCalls().filter((c) => c.method === 'GET' && c.path.endsWith('/3/')).length;
      const before = reads();

      await h.gql(UPDATE, { input: { id: other.id, name: 'Config 4, renamed' } });
      await settle(200);
      expect(reads()).toBe(before);

      const next = live.next();
      await h.gql(UPDATE, { input: { id: config3.id, name: 'Config 3, renamed' } });
      expect((await next).value.data.project.destinationConfig).toEqual({
        id: config3.id,
        name: 'Config 3, renamed',
      });
      expect(reads()).toBeGreaterThan(before);
      await live.return();
      live.dispose();
    } finally {
      await h.close();
    }
  });
});

describe.each<Transport>(['sse', 'ws'])('@live destinations over %s (today’s PostHog)', (transport) => {
  const DESTINATIONS = `query @live { project(projectId: "1") {
    destinations(first: 100) { totalCount edges { node { __typename ... on DestinationConfig { plugin } } } }
  } }`;

  it('re-runs read the lists each round and each plugin once, and show a legacy_destination turned off', async () => {
    const h = await startHarness({ dialect: 'posthog-2026', env: { LIVE_QUERY_POLL_MS: '100' } });
    try {
      const retrieves = () =>
        h.upstreamCalls().filter((c) => /pipeline_destination_configs\/\d+\/$/.test(c.path)).length;
      const plugins = (result: {
        data: { project: { destinations: { edges: { node: { plugin?: number } }[] } } };
      }) =>
        [...new Set(result.data.project.destinations.edges.map((e) => e.node.plugin).filter(Boolean))].sort();
      const live = subscribe(h, transport, 'phx_full', DESTINATIONS);
      const first = await live.next();
      expect(first.value.errors).toBeUndefined();
      expect(plugins(first.value)).toEqual([3, 4, 5]);
      expect(retrieves()).toBe(5);
      // At least three rounds run, each reading the hog functions again.
      const lists = () => h.upstreamCalls().filter((c) => /hog_functions\/$/.test(c.path)).length;
      await until(() => lists() >= 3, 'three rounds');
      const next = live.next();
      const s3 = [...h.upstream.store.hogFunctions.values()].find((f) => f.name === 'S3 Export (migrated)')!;
      s3.enabled = false;
      const pushed = await next;
      expect(plugins(pushed.value)).toEqual([2, 3, 4, 5]);
      // No round after the first read a plugin again.
      expect(retrieves()).toBe(5);
      await live.return();
      live.dispose();
    } finally {
      await h.close();
    }
  });
});
