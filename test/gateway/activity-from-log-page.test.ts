// A view that reads the project's activity log beside a page of items each with its newest
// activity (the combined view) reads the log once: each item's newest entries are the log page's
// entries of that item, where the page holds them, in every dialect. PostHog filters the log by
// scope and item_id on the same queryset it lists, in the same order (posthog/api/activity_log.py
// at 00f399d, get_queryset; advanced_activity_logs/viewset.py at 1b10cf8), so those entries are
// the item's own log's newest. Where the page may not hold them the item is read as before.

import type { Dialect } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { headOnPage } from '../../src/loaders/activity/heads.ts';
import { normalizeEntry } from '../../src/upstream/posthog/normalize.ts';
import { normalizeCursorPage } from '../../src/upstream/wire/pages.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const ACTIVITY =
  'activity(first: 2) { edges { cursor node { id scope itemId } } pageInfo { hasNextPage endCursor } }';
const LOG = 'activityLog(first: 5) { edges { node { id } } }';

const items = (dialect: Dialect, project: string, withLog: string) =>
  dialect === 'posthog-2026'
    ? `{ project(projectId: "${project}") { ${withLog} destinations(first: 6) { edges { node { __typename id ${ACTIVITY} } } } } }`
    : `{ project(projectId: "${project}") { ${withLog} destinationConfigs(first: 5) { edges { node { id databaseId ${ACTIVITY} } } } } }`;

interface Item {
  id: string;
  databaseId?: number;
  activity: { edges: { node: { scope: string; itemId: string } }[] };
}

const listOf = (body: { data: { project: Record<string, { edges: { node: Item }[] }> } }) =>
  (body.data.project.destinations ?? body.data.project.destinationConfigs)!.edges.map((e) => e.node);

/** The log reads of the last query, as path and query. */
const activityReads = (h: Harness) =>
  h
    .upstreamCalls()
    .filter((c) => /activity_log/.test(c.path))
    .map((c) => `${c.path}?${c.query}`);

/** The query with the project's log and without it: the items answer the same. */
async function withAndWithoutLog(h: Harness, dialect: Dialect, project: string) {
  const alone = await h.gql(items(dialect, project, ''));
  expect(alone.body.errors).toBeUndefined();
  h.upstream.clearRequests();
  const both = await h.gql(items(dialect, project, LOG));
  expect(both.body.errors).toBeUndefined();
  expect(listOf(both.body)).toEqual(listOf(alone.body));
  return { reads: activityReads(h), items: listOf(both.body) };
}

describe.each<Dialect>([
  'spec',
  'posthog',
  'posthog-2026',
])('items’ activity beside the project’s log, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('reads a log that fits one page once, and no item alone', async () => {
    // Project 2's log is one page (no `next`): an item with fewer entries there has no more.
    const { reads, items } = await withAndWithoutLog(h, dialect, '2');
    expect(reads).toEqual(['/api/projects/2/activity_log/?']);
    expect(items.filter((item) => item.activity.edges.length > 0).length).toBeGreaterThan(2);
  });

  it('reads alone only the items whose newest entries the first page may not hold', async () => {
    // Project 1's log runs past its first page. Configs 1-3 have their three newest there (two
    // shown, the third says there are more); 4 and 5, and PostHog's configs 60, 120, 43, 103 and
    // 26, have none there, which says nothing of the pages after it. PostHog 2026's functions
    // have one each there: they are read together from advanced_activity_logs.
    const { reads } = await withAndWithoutLog(h, dialect, '1');
    const own = (ids: number[]) =>
      ids.map((id) => `/api/projects/1/activity_log/?scope=PluginConfig&item_id=${id}`);
    if (dialect === 'spec') expect(reads).toEqual(['/api/projects/1/activity_log/?', ...own([4, 5])]);
    if (dialect === 'posthog')
      expect(reads).toEqual(['/api/projects/1/activity_log/?', ...own([60, 120, 43, 103, 26])]);
    if (dialect === 'posthog-2026') {
      expect(reads).toHaveLength(2);
      expect(reads[1]).toMatch(/^\/api\/projects\/1\/advanced_activity_logs\/\?scopes=HogFunction&/);
    }
  });
});

describe('a log page the items’ entries cannot come from', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec' });
  });
  afterAll(() => h.close());

  it.each([
    ['another scope', 'activityLog(first: 5, scope: "Insight") { edges { node { id } } }'],
    ['one user', 'activityLog(first: 5, userId: 1) { edges { node { id } } }'],
  ])('%s: each item is read alone', async (_, log) => {
    h.upstream.clearRequests();
    const { body } = await h.gql(items('spec', '2', log));
    const configs = body.data?.project?.destinationConfigs?.edges ?? [];
    expect(body.errors).toBeUndefined();
    const reads = activityReads(h).filter((r) => r.includes('item_id='));
    expect(reads).toHaveLength(configs.length);
    expect(configs.length).toBeGreaterThan(0);
  });

  it('a page of the items’ own scope serves them as the whole log does', async () => {
    h.upstream.clearRequests();
    const { body } = await h.gql(
      items('spec', '2', 'activityLog(first: 5, scope: "PluginConfig") { edges { node { id } } }'),
    );
    expect(body.errors).toBeUndefined();
    expect(activityReads(h)).toEqual(['/api/projects/2/activity_log/?scope=PluginConfig']);
  });

  it('a write after the log was read: an item’s activity asked for after it is read anew', async () => {
    h.upstream.clearRequests();
    const listed = await h.gql(
      '{ project(projectId: "2") { destinationConfigs(first: 1) { edges { node { id databaseId } } } } }',
    );
    const { id, databaseId } = listed.body.data.project.destinationConfigs.edges[0].node;
    // Mutation fields run one after the other: b's write comes after a's log page was read.
    const { body } = await h.gql(
      `mutation($id: ID!) {
        a: updateDestinationConfig(input: {id: $id, enabled: false}) { destinationConfig { project { activityLog(first: 5) { edges { node { id } } } } } }
        b: updateDestinationConfig(input: {id: $id, enabled: true}) { destinationConfig { activity(first: 1) { edges { node { id } } } } }
      }`,
      { id },
    );
    expect(body.errors).toBeUndefined();
    const own = await fetch(
      `${h.upstream.url}/api/projects/2/activity_log/?scope=PluginConfig&item_id=${databaseId}`,
      {
        headers: { authorization: 'Bearer phx_full' },
      },
    );
    const newest = ((await own.json()) as { results: { id: string }[] }).results[0]!.id;
    expect(
      body.data.b.destinationConfig.activity.edges.map((e: { node: { id: string } }) => e.node.id),
    ).toEqual([newest]);
  });
});

describe('an item’s entries on a log page', () => {
  const entry = (id: number, scope: string, itemId: unknown, extra = '') =>
    `{"id":"e${id}","activity":"updated","scope":"${scope}","item_id":${JSON.stringify(itemId)}${extra},"created_at":"2026-01-0${id}T00:00:00Z"}`;
  const page = (entries: string[], next: string | null) =>
    normalizeCursorPage(
      {
        chunks: [
          Buffer.from(`{"next":${JSON.stringify(next)},"previous":null,"results":[${entries.join(',')}]}`),
        ],
      },
      (raw) => normalizeEntry(raw, '1'),
    );
  const key = (itemId: string, first = 1) => ({ projectId: '1', scope: 'PluginConfig', itemId, first });
  const NEXT = 'http://upstream/api/projects/1/activity_log/?cursor=cD0x';

  it('serves an item’s entries and whether it has more, by scope and id', () => {
    const p = page(
      [
        entry(1, 'Insight', '7'),
        entry(2, 'PluginConfig', '7'),
        entry(3, 'PluginConfig', 7),
        entry(4, 'PluginConfig', '8'),
      ],
      null,
    );
    expect(headOnPage(p, key('7'))).toEqual({ entries: [expect.objectContaining({ id: 'e2' })], more: true });
    expect(headOnPage(p, key('7', 2))?.entries.map((e) => e.id)).toEqual(['e2', 'e3']);
    expect(headOnPage(p, key('9'))).toEqual({ entries: [], more: false });
  });

  it('never serves an entry of no item to an item named "null"', () => {
    expect(headOnPage(page([entry(1, 'PluginConfig', null)], null), key('null'))).toEqual({
      entries: [],
      more: false,
    });
  });

  it('says nothing of an item with too few entries on a page with more after it', () => {
    const p = page([entry(1, 'PluginConfig', '7'), entry(2, 'PluginConfig', '8')], NEXT);
    expect(headOnPage(p, key('7'))).toBeNull();
    expect(headOnPage(p, key('9'))).toBeNull();
  });

  it('refuses a page whose entry names its item twice (JSON.parse keeps the last)', () => {
    const twice = entry(1, 'PluginConfig', '7', ',"item_id":"8"');
    expect(() => headOnPage(page([twice], null), key('7'))).toThrow();
  });
});
