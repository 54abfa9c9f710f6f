// What PostHog removed, answered honestly (issue 24, item 4): against today's PostHog (the
// reference upstream's posthog-2026 dialect) an operation the upstream no longer offers is
// UPSTREAM_UNSUPPORTED with what PostHog offers instead, recognised from the upstream's answer;
// a 402 is PAYMENT_REQUIRED with PostHog's message. No upstream call is made twice for it, and the
// rest of the answer still arrives.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';

const unsupported = (body: { errors?: { extensions: { code: string } }[] }) =>
  body.errors?.map((e) => e.extensions.code);

describe('operations PostHog removed, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('important changes: UPSTREAM_UNSUPPORTED naming the activity log, and the rest arrives', async () => {
    const { body } = await h.gql('{ project(projectId: "1") { name importantChanges { lastRead } } }');
    expect(body.data.project).toEqual({ name: 'Hedgebox (production)', importantChanges: null });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      path: ['project', 'importantChanges'],
      extensions: { code: 'UPSTREAM_UNSUPPORTED', upstream: { status: 404 } },
    });
    expect(body.errors[0].message).toMatch(/no longer offers important changes.*activity log/);
    expect(h.upstreamCalls({ path: '/api/projects/1/activity_log/important_changes/' })).toHaveLength(1);
  });

  it('the bookmark, a job, the frontend, rearrange and config creation: UPSTREAM_UNSUPPORTED, sent once', async () => {
    const cases: [string, RegExp][] = [
      [
        'mutation { bookmarkActivityNotification(input: {projectId: "1"}) { bookmark } }',
        /no longer offers notification bookmarks/,
      ],
      [
        `mutation { runDestinationConfigJob(input: {id: "${configId('1', 1)}", job: {type: "x"}}) { destinationConfig { id } } }`,
        /no longer runs plugin jobs.*hog functions/,
      ],
      [
        '{ project(projectId: "1") { destinationConfig(databaseId: 1) { name frontend { contentType } } } }',
        /no longer serves plugin frontends.*hog functions/,
      ],
      [
        `mutation { rearrangeDestinationConfigs(input: {projectId: "1", orders: [{id: "${configId('1', 1)}", order: 2}]}) { destinationConfigs { id } } }`,
        /no longer rearranges plugin configs.*hog functions/,
      ],
      [
        'mutation { createDestinationConfig(input: {projectId: "1", plugin: 1, order: 1}) { destinationConfig { id } } }',
        /no longer creates plugin configs.*hog function/,
      ],
    ];
    for (const [query, message] of cases) {
      h.reset();
      const { body } = await h.gql(query);
      expect([query, unsupported(body)]).toEqual([query, ['UPSTREAM_UNSUPPORTED']]);
      expect(body.errors[0].message).toMatch(message);
      expect(body.errors[0].extensions.writeOutcome).toBeUndefined();
      expect(h.upstreamCalls().filter((c) => c.method !== 'GET')).toHaveLength(
        query.startsWith('mutation') ? 1 : 0,
      );
    }
  });

  it('a plan without audit logs: PAYMENT_REQUIRED with PostHog’s message', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "3") { activityLog(first: 1) { edges { node { id } } } } }',
      {},
      'phx_other',
    );
    expect(body.data.project.activityLog).toBeNull();
    expect(body.errors[0]).toMatchObject({
      message: 'Audit logs requires a paid PostHog plan. Please upgrade to access this feature.',
      extensions: { code: 'PAYMENT_REQUIRED', upstream: { status: 402, code: 'payment_required' } },
    });
  });

  it('a config that does not exist is still NOT_FOUND (a 404 that is not a missing route)', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfig(databaseId: 99999) { name } } }',
    );
    expect(body.data.project.destinationConfig).toBeNull();
    expect(body.errors).toBeUndefined();
  });
});

describe('the schema marks what PostHog removed as deprecated, with the reason', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('deprecates the six operations, naming UPSTREAM_UNSUPPORTED', async () => {
    const { body } = await h.gql(`{
      mutation: __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } }
      project: __type(name: "Project") { fields(includeDeprecated: true) { name deprecationReason } }
      config: __type(name: "DestinationConfig") { fields(includeDeprecated: true) { name deprecationReason } }
    }`);
    const deprecated = Object.values(
      body.data as Record<string, { fields: { name: string; deprecationReason: string | null }[] }>,
    )
      .flatMap((t) => t.fields)
      .filter((f) => f.deprecationReason !== null);
    expect(deprecated.map((f) => f.name).sort()).toEqual([
      'bookmarkActivityNotification',
      'createDestinationConfig',
      'frontend',
      'importantChanges',
      'rearrangeDestinationConfigs',
      'runDestinationConfigJob',
    ]);
    for (const f of deprecated) expect(f.deprecationReason).toContain('UPSTREAM_UNSUPPORTED');
  });
});

describe('PostHog without the legacy routes (PR #97440)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', upstream: { legacyRoutes: false } });
  });
  afterAll(() => h.close());

  it('reads of plugin configs are UPSTREAM_UNSUPPORTED naming hog functions', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { name destinationConfigs(first: 1) { totalCount } } }',
    );
    expect(body.data.project).toEqual({ name: 'Hedgebox (production)', destinationConfigs: null });
    expect(unsupported(body)).toEqual(['UPSTREAM_UNSUPPORTED']);
    expect(body.errors[0].message).toMatch(/no longer serves plugin configs.*hog functions/);
  });
});

describe('the same operations against mid-2024 PostHog keep their answers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog' });
  });
  afterAll(() => h.close());

  it('a scoped key is FORBIDDEN from important changes (an unscoped one may read them)', async () => {
    const scoped = await h.gql('{ project(projectId: "1") { importantChanges { lastRead } } }');
    expect(unsupported(scoped.body)).toEqual(['FORBIDDEN']);
    const legacy = await h.gql(
      '{ project(projectId: "1") { importantChanges { lastRead } } }',
      {},
      'phx_legacy',
    );
    expect(legacy.body.errors).toBeUndefined();
  });
});
