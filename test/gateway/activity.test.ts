import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Harness, startHarness } from '../support/harness.ts';

const LOG = `query Log($first: Int, $after: String, $last: Int, $before: String, $scope: String, $itemId: String, $userId: Int) {
  project(projectId: "1") {
    activityLog(first: $first, after: $after, last: $last, before: $before, scope: $scope, itemId: $itemId, userId: $userId) {
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

  it('refuses a cursor of another list, a malformed cursor, and first with last, with no upstream call', async () => {
    const page = await log({ first: 2 });
    h.upstream.clearRequests();
    const cursor: string = page.pageInfo.endCursor;
    const [, upstreamCursor, index, entryId] = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const reencoded = (fields: unknown[]) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    const list = JSON.parse(Buffer.from(cursor, 'base64url').toString())[0];
    for (const variables of [
      { after: cursor, scope: 'Insight' },
      { before: cursor, last: 2, itemId: '7' },
      { after: `${cursor}x` },
      { after: `${cursor}=` },
      { after: 'bm90IGEgY3Vyc29y' },
      { after: reencoded([list, 'not a cursor!', index, entryId]) },
      { after: reencoded([list, upstreamCursor, -1, entryId]) },
      { after: reencoded([list, upstreamCursor, index]) },
      { after: reencoded([list.replace('"1"', '"2"'), upstreamCursor, index, entryId]) },
    ]) {
      const { body } = await h.gql(LOG, variables);
      const field = 'after' in variables ? 'after' : 'before';
      expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const both = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 5, last: 5) { edges { cursor } } } }',
    );
    expect(both.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('walks all 260 entries backward: the forward walk reversed, no gap, no duplicate', async () => {
    const forward: string[] = [];
    for (let after: string | null = null; ; ) {
      const conn = await log({ first: 100, after });
      forward.push(...entryIds(conn));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    const backward: string[] = [];
    let pages = 0;
    let conn = await log({ last: 45 });
    expect(conn.pageInfo.hasNextPage).toBe(false);
    for (;;) {
      pages++;
      backward.unshift(...entryIds(conn));
      if (!conn.pageInfo.hasPreviousPage) break;
      expect(conn.pageInfo.hasNextPage).toBe(pages > 1);
      conn = await log({ last: 45, before: conn.pageInfo.startCursor });
    }
    expect(pages).toBe(Math.ceil(260 / 45));
    expect(backward).toEqual(forward);
    expect(new Set(backward).size).toBe(260);
  });

  it('pages backward from any edge, mid-page included, with the right hasPreviousPage', async () => {
    const whole = await log({ first: 100 });
    const ids = entryIds(whole);
    const before37 = await log({ last: 10, before: whole.edges[37].cursor });
    expect(entryIds(before37)).toEqual(ids.slice(27, 37));
    expect(before37.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const top = await log({ last: 10, before: whole.edges[4].cursor });
    expect(entryIds(top)).toEqual(ids.slice(0, 4));
    expect(top.pageInfo.hasPreviousPage).toBe(false);
    // Across an upstream page boundary, back through the page's `previous` link.
    const next = await log({ first: 30, after: whole.pageInfo.endCursor });
    const across = await log({ last: 20, before: next.edges[5].cursor });
    expect(entryIds(across)).toEqual([...ids.slice(85), ...entryIds(next).slice(0, 5)]);
    expect(across.pageInfo.hasPreviousPage).toBe(true);
    // Forward again from an edge that was reached backward.
    const again = await log({ first: 10, after: across.edges[0].cursor });
    expect(entryIds(again)).toEqual(ids.slice(86, 96));
  });

  it('follows only the upstream’s own links backward: every cursor sent was written by the upstream', async () => {
    const first = await log({ first: 100 });
    const second = await log({ first: 100, after: first.pageInfo.endCursor });
    h.upstream.clearRequests();
    await log({ last: 50, before: second.edges[10].cursor });
    const sent = h.upstreamCalls().map((c) => new URLSearchParams(c.query).get('cursor'));
    expect(sent).toHaveLength(2);
    for (const cursor of sent) {
      const text = Buffer.from(cursor!, 'base64').toString();
      expect(text).toMatch(/^(r=1&)?p=/);
    }
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
    const importantCalls = h.upstreamCalls().filter((c) => c.path.endsWith('important_changes/'));
    expect(importantCalls.map((c) => c.query).sort()).toEqual(['', 'unread=true']);
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
