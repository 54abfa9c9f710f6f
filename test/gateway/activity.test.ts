import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Harness, startHarness } from '../harness.ts';

const LOG = `query Log($first: Int, $after: String, $scope: String, $itemId: String, $userId: Int) {
  project(projectId: "1") {
    activityLog(first: $first, after: $after, scope: $scope, itemId: $itemId, userId: $userId) {
      edges { cursor node { id scope itemId activity createdAt unread user { id databaseId email } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

describe.each(DIALECTS)('activity log through the gateway, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  // biome-ignore lint/suspicious/noExplicitAny: connection answers.
  const log = async (variables: Record<string, unknown>): Promise<any> => {
    const { body } = await h.gql(LOG, variables);
    expect(body.errors).toBeUndefined();
    return body.data.project.activityLog;
  };
  const entryIds = (conn: { edges: { node: { id: string } }[] }) => conn.edges.map((e) => e.node.id);

  it('walks all 260 entries across upstream pages with no gap or duplicate', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const conn = await log({ first: 70, after });
      seen.push(...entryIds(conn));
      pages++;
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(260);
    expect(new Set(seen).size).toBe(260);
  });

  it('continues a page of `first` into the next upstream page', async () => {
    const first = await log({ first: 90 });
    const next = await log({ first: 30, after: first.pageInfo.endCursor });
    expect(next.edges).toHaveLength(30);
    const upstreamPages = h.upstreamCalls({ path: '/api/projects/1/activity_log/' });
    // The second request reads page one again (to find the edge), then page two by its cursor.
    expect(upstreamPages.map((c) => c.query.startsWith('cursor=')).filter(Boolean)).toHaveLength(1);
    const whole = await log({ first: 100 });
    const more = await log({ first: 20, after: whole.pageInfo.endCursor });
    expect([...entryIds(whole), ...entryIds(more)].slice(90, 120)).toEqual(entryIds(next));
  });

  it('resumes after any edge, even mid-page', async () => {
    const page = await log({ first: 50 });
    const mid = page.edges[17].cursor;
    const resumed = await log({ first: 10, after: mid });
    expect(entryIds(resumed)).toEqual(entryIds(page).slice(18, 28));
    expect(resumed.pageInfo.hasPreviousPage).toBe(true);
  });

  it('resumes after the same entry when newer ones arrived on the first page since', async () => {
    const page = await log({ first: 20 });
    const store = h.upstream.store;
    for (let n = 0; n < 3; n++) {
      store.pushActivity({
        projectId: 1,
        userId: 1,
        is_system: false,
        activity: 'updated',
        scope: 'Insight',
        item_id: '1',
        detail: null,
        createdAtMicros: store.nowMicros(),
      });
    }
    const resumed = await log({ first: 10, after: page.edges[4].cursor });
    expect(entryIds(resumed)).toEqual(entryIds(page).slice(5, 15));
  });

  it('says hasNextPage only when more entries exist', async () => {
    const last = await log({ first: 100, scope: 'FeatureFlag' });
    expect(last.edges.length).toBeLessThan(100);
    expect(last.pageInfo.hasNextPage).toBe(false);
    const exact = await log({ first: last.edges.length, scope: 'FeatureFlag' });
    expect(exact.pageInfo.hasNextPage).toBe(false);
    const short = await log({ first: last.edges.length - 1, scope: 'FeatureFlag' });
    expect(short.pageInfo.hasNextPage).toBe(true);
  });

  it('passes filters to the upstream as scope, item_id and user, and carries them across pages', async () => {
    const conn = await log({ first: 100, scope: 'PluginConfig', userId: 2, itemId: '3' });
    expect(conn.edges.length).toBeGreaterThan(0);
    for (const { node } of conn.edges)
      expect(node).toMatchObject({ scope: 'PluginConfig', itemId: '3', user: { databaseId: 2 } });
    const [call] = h.upstreamCalls({ path: '/api/projects/1/activity_log/' });
    expect(new URLSearchParams(call!.query).get('item_id')).toBe('3');
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page = await log({ first: 100, after, scope: 'PluginConfig' });
      all.push(...entryIds(page));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses a cursor of another list, a tampered cursor, and last/before, with no upstream call', async () => {
    const page = await log({ first: 2 });
    h.upstream.clearRequests();
    const cursor: string = page.pageInfo.endCursor;
    const tampered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    for (const variables of [
      { after: cursor, scope: 'Insight' },
      { after: tampered },
      { after: 'bm90IGEgY3Vyc29y' },
    ]) {
      const { body } = await h.gql(LOG, variables);
      expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    }
    const backwards = await h.gql(
      '{ project(projectId: "1") { activityLog(last: 5) { edges { cursor } } } }',
    );
    expect(backwards.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(backwards.body.errors[0].message).toMatch(/forward only/);
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('lists a config’s own activity', async () => {
    const { body } = await h.gql(`{
      project(projectId: "1") { destinationConfig(databaseId: 2) { activity(first: 100) { edges { node { scope itemId } } } } }
    }`);
    const edges = body.data.project.destinationConfig.activity.edges;
    expect(edges.length).toBeGreaterThan(0);
    for (const { node } of edges) expect(node).toEqual({ scope: 'PluginConfig', itemId: '2' });
  });

  it('serves important changes in any of the upstream’s shapes', async () => {
    const key = dialect === 'posthog' ? 'phx_legacy' : 'phx_full';
    const { body } = await h.gql(
      '{ project(projectId: "1") { importantChanges { lastRead entries { id unread activity } } unread: importantChanges(unreadOnly: true) { entries { id } } } }',
      {},
      key,
    );
    expect(body.errors).toBeUndefined();
    const changes = body.data.project.importantChanges;
    expect(changes.entries.length).toBe(dialect === 'posthog' ? 10 : 1);
    expect(changes.lastRead).toBeNull();
    expect(changes.entries.every((e: { unread: boolean }) => e.unread)).toBe(true);
    const unreadCall = h
      .upstreamCalls()
      .find((c) => c.path.endsWith('important_changes/') && c.query === 'unread=true');
    expect(unreadCall).toBeDefined();
  });

  it('bookmarks notifications, sending {"bookmark": <ISO>}, now by default', async () => {
    const key = dialect === 'posthog' ? 'phx_legacy' : 'phx_full';
    const mutation = `mutation($input: BookmarkActivityNotificationInput!) {
      bookmarkActivityNotification(input: $input) { clientMutationId bookmark entry { id } }
    }`;
    const at = '2030-01-01T00:00:00.000Z';
    const { body } = await h.gql(
      mutation,
      { input: { projectId: '1', bookmark: at, clientMutationId: 'm1' } },
      key,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.bookmarkActivityNotification).toMatchObject({ clientMutationId: 'm1', bookmark: at });
    if (dialect === 'posthog') expect(body.data.bookmarkActivityNotification.entry).toBeNull();
    else expect(body.data.bookmarkActivityNotification.entry.id).toEqual(expect.any(String));
    const now = await h.gql(mutation, { input: { projectId: '1' } }, key);
    expect(Date.parse(now.body.data.bookmarkActivityNotification.bookmark)).toBeGreaterThan(
      Date.parse('2026-01-01'),
    );
    if (dialect === 'posthog') {
      const changes = await h.gql('{ project(projectId: "1") { importantChanges { lastRead } } }', {}, key);
      expect(changes.body.data.project.importantChanges.lastRead).not.toBeNull();
    }
  });
});
