// activityLog(filter:) on each route: PostHog 2026's advanced_activity_logs filters it (its lists as
// repeated parameters, dates and search_text), in one call; before it (spec, posthog) the gateway
// filters the plain activity_log's pages it reads, each page one call. Entries carry the client
// PostHog recorded: the gateway's own name on a write made through it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Harness, startHarness } from '../support/harness.ts';

const ENTRIES = `query($filter: ActivityLogFilter, $first: Int) { project(projectId: "1") {
  activityLog(first: $first, filter: $filter) { edges { node { id scope activity createdAt user { email } client credentialType } } pageInfo { hasNextPage endCursor } }
} }`;

interface Entry {
  id: string;
  scope: string;
  activity: string;
  createdAt: string;
  user: { email: string } | null;
  client: string | null;
  credentialType: string | null;
}

const nodes = (body: { data: { project: { activityLog: { edges: { node: Entry }[] } } } }) =>
  body.data.project.activityLog.edges.map((e) => e.node);

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const GATEWAY_CLIENT = `${manifest.name}/${manifest.version}`;

describe('activityLog(filter:), posthog-2026: advanced_activity_logs filters it', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('sends scopes, activities, dates and search to advanced_activity_logs, in one call', async () => {
    const filter = {
      scopes: ['HogFunction', 'BatchExport'],
      activities: ['created'],
      since: '2020-01-01T00:00:00Z',
      until: '2100-01-01T00:00:00Z',
      search: 'e',
    };
    const { body } = await h.gql(ENTRIES, { filter, first: 20 });
    expect(body.errors).toBeUndefined();
    const entries = nodes(body);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(filter.scopes).toContain(e.scope);
      expect(e.activity).toBe('created');
    }
    const calls = h.upstreamCalls().filter((c) => /activity/.test(c.path));
    expect(calls.map((c) => c.path)).toEqual(['/api/projects/1/advanced_activity_logs/']);
    const query = new URLSearchParams(calls[0]!.query);
    expect(query.getAll('scopes')).toEqual(['HogFunction', 'BatchExport']);
    expect(query.getAll('activities')).toEqual(['created']);
    expect(query.get('start_date')).toBe('2020-01-01T00:00:00Z');
    // PostHog's end_date is inclusive: a microsecond before `until`.
    expect(query.get('end_date')).toBe('2099-12-31T23:59:59.999999Z');
    expect(query.get('search_text')).toBe('e');
  });

  it('checks e-mails itself (PostHog filters users by UUID), from what it reads', async () => {
    const all = nodes((await h.gql(ENTRIES, { first: 50, filter: { scopes: ['HogFunction'] } })).body);
    const email = all.find((e) => e.user)!.user!.email;
    h.reset();
    const { body } = await h.gql(ENTRIES, {
      first: 5,
      filter: { scopes: ['HogFunction'], userEmails: [email.toUpperCase()] },
    });
    expect(body.errors).toBeUndefined();
    expect(nodes(body).length).toBeGreaterThan(0);
    for (const e of nodes(body)) expect(e.user?.email).toBe(email);
    const calls = h.upstreamCalls().filter((c) => /activity/.test(c.path));
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(10);
    expect(new Set(calls.map((c) => c.path))).toEqual(new Set(['/api/projects/1/advanced_activity_logs/']));
  });

  it('records the gateway’s name as the client of a write made through it', async () => {
    const S3_HOURLY = '018f0a5e-0020-7000-8000-000000000001';
    const exp = await h.gql(`{ project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") { id } } }`);
    const paused = await h.gql(
      'mutation($id: ID!) { pauseBatchExport(input: {id: $id}) { batchExport { paused } } }',
      {
        id: exp.body.data.project.batchExport.id,
      },
    );
    expect(paused.body.errors).toBeUndefined();
    const { body } = await h.gql(ENTRIES, {
      first: 10,
      filter: { scopes: ['BatchExport'], itemIds: [S3_HOURLY] },
    });
    const [newest, ...older] = nodes(body);
    expect(newest).toMatchObject({
      activity: 'updated',
      client: GATEWAY_CLIENT,
      credentialType: 'personal_api_key',
    });
    // Entries made outside a request (the seed's) record neither.
    expect(older.at(-1)).toMatchObject({ client: null, credentialType: null });
  });
});

describe.each(DIALECTS)('activityLog(filter:), %s: the gateway filters the plain activity_log', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('keeps the matching entries of the pages it reads, one call a page', async () => {
    const { body } = await h.gql(ENTRIES, {
      first: 5,
      filter: { scopes: ['PluginConfig'], activities: ['updated'] },
    });
    expect(body.errors).toBeUndefined();
    const entries = nodes(body);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries)
      expect([e.scope, e.activity, e.client, e.credentialType]).toEqual([
        'PluginConfig',
        'updated',
        null,
        null,
      ]);
    const calls = h.upstreamCalls().filter((c) => /activity/.test(c.path));
    // The one scope goes to the upstream as `scope`; the activity is checked here.
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(10);
    for (const c of calls) {
      expect(c.path).toBe('/api/projects/1/activity_log/');
      expect(new URLSearchParams(c.query).get('scope')).toBe('PluginConfig');
    }
    // The same entries as the upstream's own list, filtered.
    const own = await fetch(`${h.upstream.url}/api/projects/1/activity_log/?scope=PluginConfig`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    const ids = ((await own.json()) as { results: { id: string; activity: string }[] }).results
      .filter((r) => r.activity === 'updated')
      .map((r) => r.id);
    expect(entries.map((e) => e.id)).toEqual(ids.slice(0, entries.length));
  });

  it('pages on from a filtered cursor', async () => {
    const filter = { scopes: ['PluginConfig', 'FeatureFlag'], since: '2000-01-01T00:00:00Z' };
    const first = await h.gql(ENTRIES, { first: 3, filter });
    const more = await h.gql(
      `query($filter: ActivityLogFilter, $after: String) { project(projectId: "1") { activityLog(first: 3, after: $after, filter: $filter) { edges { node { id scope } } } } }`,
      { filter, after: first.body.data.project.activityLog.pageInfo.endCursor },
    );
    expect(more.body.errors).toBeUndefined();
    const both = await h.gql(ENTRIES, { first: 6, filter });
    expect(
      [
        ...nodes(first.body),
        ...more.body.data.project.activityLog.edges.map((e: { node: Entry }) => e.node),
      ].map((e) => e.id),
    ).toEqual(nodes(both.body).map((e) => e.id));
  });
});
