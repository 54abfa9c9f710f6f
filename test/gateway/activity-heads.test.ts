// A page of items each with its activity (issue 41, item 4): the items' newest entries come from
// one read of PostHog's advanced_activity_logs for the page (scopes and item_ids), the same
// entries each item's own log holds, with cursors that page on in that log; the first query a
// new user writes, destinations(first: 50) with each one's latest activity, fits the default
// limit; an upstream without advanced_activity_logs is asked once, then each item is read alone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const NEW_USER = `{ project(projectId: "1") { destinations(first: 50) { edges { node {
  __typename id
  ... on HogFunction { uuid }
  ... on DestinationConfig { databaseId }
  ... on BatchExport { uuid }
  activity(first: 2) { edges { cursor node { id scope itemId } } pageInfo { hasNextPage endCursor } }
} } } } }`;

interface Item {
  __typename: string;
  uuid?: string;
  databaseId?: number;
  activity: {
    edges: { cursor: string; node: { id: string; scope: string; itemId: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string };
  };
}

describe('activity of a page of items, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('answers the new user’s query within the default limit, in one activity read', async () => {
    const { body } = await h.gql(NEW_USER);
    expect(body.errors).toBeUndefined();
    const items: Item[] = body.data.project.destinations.edges.map((e: { node: Item }) => e.node);
    expect(items).toHaveLength(50);
    const activityCalls = h.upstreamCalls().filter((c) => /activity_log/.test(c.path));
    expect(activityCalls.map((c) => c.path)).toEqual(['/api/projects/1/advanced_activity_logs/']);
    // Each item's entries are its own log's newest, as the upstream's own per-item list has them.
    for (const item of items.slice(0, 8)) {
      const { scope, id } =
        item.__typename === 'HogFunction'
          ? { scope: 'HogFunction', id: item.uuid! }
          : item.__typename === 'BatchExport'
            ? { scope: 'BatchExport', id: item.uuid! }
            : { scope: 'PluginConfig', id: String(item.databaseId) };
      const own = await fetch(`${h.upstream.url}/api/projects/1/activity_log/?scope=${scope}&item_id=${id}`, {
        headers: { authorization: 'Bearer phx_full' },
      });
      const ids = ((await own.json()) as { results: { id: string }[] }).results.map((r) => r.id);
      expect(item.activity.edges.map((e) => e.node.id)).toEqual(ids.slice(0, 2));
      expect(item.activity.pageInfo.hasNextPage).toBe(ids.length > 2);
    }
  });

  it('pages on from a batched cursor through the item’s own log', async () => {
    const { body } = await h.gql(NEW_USER);
    const busy = (body.data.project.destinations.edges as { node: Item }[])
      .map((e) => e.node)
      .find((n) => n.activity.pageInfo.hasNextPage && n.__typename === 'DestinationConfig');
    expect(busy).toBeDefined();
    const more = await h.gql(
      `query($after: String) { project(projectId: "1") { destinationConfig(databaseId: ${busy!.databaseId}) { activity(first: 2, after: $after) { edges { node { id } } } } } }`,
      { after: busy!.activity.pageInfo.endCursor },
    );
    expect(more.body.errors).toBeUndefined();
    const own = await fetch(
      `${h.upstream.url}/api/projects/1/activity_log/?scope=PluginConfig&item_id=${busy!.databaseId}`,
      {
        headers: { authorization: 'Bearer phx_full' },
      },
    );
    const ids = ((await own.json()) as { results: { id: string }[] }).results.map((r) => r.id);
    expect(
      more.body.data.project.destinationConfig.activity.edges.map((e: { node: { id: string } }) => e.node.id),
    ).toEqual(ids.slice(2, 4));
  });
});

describe('activity of a page of items, an upstream without advanced_activity_logs', () => {
  it('learns so as it starts, without a key, then reads each item alone', async () => {
    const h = await startHarness({ dialect: 'posthog' });
    try {
      // The gateway asked once as it started (no key: PostHog answers a route it lacks with
      // "Endpoint not found." before any authentication).
      const asked = h.startupCalls.filter((c) => c.path.endsWith('/advanced_activity_logs/'));
      expect(asked.map((c) => [c.status, c.authorization ?? null])).toEqual([[404, null]]);
      h.upstream.clearRequests();
      const q =
        '{ project(projectId: "1") { destinationConfigs(first: 3) { edges { node { activity(first: 1) { edges { node { id } } } } } } } }';
      const { body } = await h.gql(q);
      expect(body.errors).toBeUndefined();
      expect(h.upstreamCalls().filter((c) => c.path.endsWith('/advanced_activity_logs/'))).toHaveLength(0);
      expect(h.upstreamCalls({ path: '/api/projects/1/activity_log/' })).toHaveLength(3);
    } finally {
      await h.close();
    }
  });
});
