// Hog functions through the gateway (issue 24, item 2: reads), against today's PostHog (the
// reference upstream's posthog-2026 dialect): the connection both ways with its filters, one by
// UUID, global ids, logs, metrics, activity, the activity log's cross-link batched per page, and
// secret inputs that never leave the upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const SLACK = '018f0a5e-0007-7000-8000-000000000002';
const WEBHOOK = '018f0a5e-0007-7000-8000-000000000001';
const FUNCTIONS = '/api/projects/1/hog_functions/';

describe('hog functions, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('pages the connection forward and backward, with totalCount, in one call a page', async () => {
    const names: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const { body } = await h.gql(
        'query($after: String) { project(projectId: "1") { hogFunctions(first: 5, after: $after) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } } }',
        { after },
      );
      const c = body.data.project.hogFunctions;
      expect(c.totalCount).toBe(12);
      names.push(...c.edges.map((e: { node: { name: string } }) => e.node.name));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(12);
    expect(names.slice(0, 2)).toEqual(['GeoIP', 'Drop bots']);
    expect(h.upstreamCalls({ path: FUNCTIONS })).toHaveLength(3);
    const last = await h.gql(
      '{ project(projectId: "1") { hogFunctions(last: 3) { edges { node { name } } pageInfo { hasPreviousPage } } } }',
    );
    expect(
      last.body.data.project.hogFunctions.edges.map((e: { node: { name: string } }) => e.node.name),
    ).toEqual(names.slice(9));
    expect(last.body.data.project.hogFunctions.pageInfo.hasPreviousPage).toBe(true);
  });

  it('passes types, enabled and search to the upstream', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { hogFunctions(types: ["legacy_destination", "site_destination"], enabled: true, search: "e") { totalCount edges { node { type } } } } }',
    );
    expect(body.data.project.hogFunctions.totalCount).toBe(3);
    const [call] = h.upstreamCalls({ path: FUNCTIONS });
    const query = new URLSearchParams(call!.query);
    expect([query.get('type'), query.get('enabled'), query.get('search'), query.get('full')]).toEqual([
      'legacy_destination,site_destination',
      'true',
      'e',
      'true',
    ]);
  });

  it('reads one by UUID with every field; a secret input reads {"secret": true} and its value never appears', async () => {
    const { body } = await h.gql(`{ project(projectId: "1") { hogFunction(uuid: "${SLACK.toUpperCase()}") {
      uuid type name enabled inputs inputsSchema template { id name } status { state name } createdBy { email } version
    } } }`);
    const fn = body.data.project.hogFunction;
    expect([fn.uuid, fn.type, fn.template.id, fn.status.name, fn.createdBy.email]).toEqual([
      SLACK,
      'destination',
      'template-slack',
      'healthy',
      'ada@example.com',
    ]);
    expect(fn.inputs.slack_workspace).toEqual({ secret: true });
    expect(JSON.stringify(body)).not.toContain('secret-1-slack_workspace');
    expect(h.logs.join('\n')).not.toContain('secret-1-slack_workspace');
  });

  it('refuses a UUID that is not one before any call, and answers null for an unknown one', async () => {
    const bad = await h.gql('{ project(projectId: "1") { hogFunction(uuid: "../1") { name } } }');
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(h.upstreamCalls()).toHaveLength(0);
    const unknown = await h.gql(
      '{ project(projectId: "1") { hogFunction(uuid: "018f0a5e-0007-7000-8000-0000000000ff") { name } } }',
    );
    expect(unknown.body).toEqual({ data: { project: { hogFunction: null } } });
  });

  it('gives one global id that node and nodes refetch, through "1" and "@current"', async () => {
    const one = await h.gql(
      `{ a: project(projectId: "1") { hogFunction(uuid: "${WEBHOOK}") { id } } b: project(projectId: "@current") { hogFunction(uuid: "${WEBHOOK}") { id } } }`,
    );
    const id = one.body.data.a.hogFunction.id;
    expect(one.body.data.b.hogFunction.id).toBe(id);
    const node = await h.gql(
      'query($id: ID!) { node(id: $id) { id ... on HogFunction { name } } nodes(ids: [$id]) { id } }',
      { id },
    );
    expect(node.body.data).toEqual({ node: { id, name: 'Webhook to ops' }, nodes: [{ id }] });
  });

  it('pages logs newest first, filters by level, and serves metrics', async () => {
    const q = `query($after: String) { project(projectId: "1") { hogFunction(uuid: "${WEBHOOK}") {
      logs(first: 5, after: $after) { totalCount edges { cursor node { timestamp level message } } pageInfo { hasNextPage endCursor } }
      errors: logs(level: ["error"]) { totalCount edges { node { level } } }
      metrics(after: "-7d", interval: "day") { labels series { name values } }
    } } }`;
    const first = await h.gql(q);
    const fn = first.body.data.project.hogFunction;
    // PostHog's count is of the rows it fetched for the page: the whole list's only when all fit.
    expect(fn.logs.totalCount).toBeNull();
    expect(fn.errors.totalCount).toBe(fn.errors.edges.length);
    expect(fn.logs.edges).toHaveLength(5);
    expect(fn.logs.pageInfo.hasNextPage).toBe(true);
    expect(new Set(fn.errors.edges.map((e: { node: { level: string } }) => e.node.level))).toEqual(
      new Set(['ERROR']),
    );
    expect(fn.metrics.labels).toHaveLength(8);
    // As the upstream names them (PostHog's app metrics kinds), passed through.
    expect(fn.metrics.series.map((s: { name: string }) => s.name)).toEqual(['success', 'failure', 'other']);
    const next = await h.gql(q, { after: fn.logs.pageInfo.endCursor });
    const older = next.body.data.project.hogFunction.logs.edges;
    expect(older).toHaveLength(5);
    expect(Date.parse(older[0].node.timestamp)).toBeLessThan(Date.parse(fn.logs.edges[4].node.timestamp));
  });

  it('reads a function’s activity, and an activity page’s functions in two calls in all', async () => {
    const own = await h.gql(
      `{ project(projectId: "1") { hogFunction(uuid: "${WEBHOOK}") { activity(first: 5) { edges { node { scope itemId activity } } } } } }`,
    );
    expect(own.body.data.project.hogFunction.activity.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { scope: 'HogFunction', itemId: WEBHOOK, activity: 'created' },
    ]);
    h.upstream.clearRequests();
    const { body } = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 20, scope: "HogFunction") { edges { node { itemId hogFunction { uuid name } } } } } }',
    );
    const edges = body.data.project.activityLog.edges;
    expect(edges).toHaveLength(12);
    for (const e of edges) expect(e.node.hogFunction.uuid).toBe(e.node.itemId);
    // The activity page, then one list page of the project's functions: distinct functions + 2 at most.
    expect(h.upstreamCalls().map((c) => c.path)).toEqual(['/api/projects/1/activity_log/', FUNCTIONS]);
  });
});

describe('hog functions against an upstream without them (mid-2024 PostHog)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog' });
  });
  afterAll(() => h.close());

  it('answers UPSTREAM_UNSUPPORTED naming the plugin configs, and the rest arrives', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { name hogFunctions(first: 1) { totalCount } } }',
    );
    expect(body.data.project).toEqual({ name: 'Hedgebox (production)', hogFunctions: null });
    expect(body.errors[0].extensions.code).toBe('UPSTREAM_UNSUPPORTED');
    expect(body.errors[0].message).toMatch(/does not serve hog functions.*destinationConfigs/);
  });
});

describe('hog function mutations, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const idOf = async (uuid: string) =>
    (await h.gql(`{ project(projectId: "1") { hogFunction(uuid: "${uuid}") { id } } }`)).body.data.project
      .hogFunction.id;

  it('creates from a template, sending only what is given; a secret value never comes back', async () => {
    const { body } = await h.gql(
      `mutation($inputs: JSON) { createHogFunction(input: {clientMutationId: "c1", projectId: "1", templateId: "template-slack", inputs: $inputs}) {
        clientMutationId hogFunction { id type name enabled inputs template { id } } } }`,
      { inputs: { slack_workspace: { value: 'xoxb-very-secret' }, channel: { value: '#alerts' } } },
    );
    expect(body.errors).toBeUndefined();
    const created = body.data.createHogFunction;
    expect([
      created.clientMutationId,
      created.hogFunction.type,
      created.hogFunction.name,
      created.hogFunction.template.id,
    ]).toEqual(['c1', 'destination', 'Slack', 'template-slack']);
    expect(created.hogFunction.inputs.slack_workspace).toEqual({ secret: true });
    expect(JSON.stringify(body)).not.toContain('xoxb-very-secret');
    expect(h.logs.join('\n')).not.toContain('xoxb-very-secret');
    const posts = h.upstreamCalls({ method: 'POST', path: FUNCTIONS });
    expect(posts.map((c) => c.body)).toEqual([
      {
        template_id: 'template-slack',
        inputs: { slack_workspace: { value: 'xoxb-very-secret' }, channel: { value: '#alerts' } },
      },
    ]);
  });

  it('updates only what is given; a secret sent as {"secret": true} keeps its value', async () => {
    const id = await idOf(SLACK);
    h.upstream.clearRequests();
    const { body } = await h.gql(
      `mutation($id: ID!, $inputs: JSON) { updateHogFunction(input: {id: $id, name: "Slack #ops", inputs: $inputs}) { hogFunction { name inputs version } } }`,
      { id, inputs: { slack_workspace: { secret: true }, channel: { value: '#ops' } } },
    );
    expect(body.data.updateHogFunction.hogFunction).toEqual({
      name: 'Slack #ops',
      // A non-secret input as PostHog answers it: its value, its compiled bytecode, its order.
      inputs: {
        slack_workspace: { secret: true },
        channel: { value: '#ops', bytecode: ['_H', 1, 32, '#ops'], order: 1 },
      },
      version: 2,
    });
    expect(h.upstreamCalls({ method: 'PATCH' }).map((c) => c.body)).toEqual([
      { name: 'Slack #ops', inputs: { slack_workspace: { secret: true }, channel: { value: '#ops' } } },
    ]);
    expect(h.upstream.store.hogFunctions.get(SLACK)!.inputs.slack_workspace!.value).toBe(
      'secret-1-slack_workspace',
    );
  });

  it('deletes by PATCH {"deleted": true}, answering its global id; it is gone afterwards', async () => {
    const id = await idOf(WEBHOOK);
    h.upstream.clearRequests();
    const { body } = await h.gql('mutation($id: ID!) { deleteHogFunction(input: {id: $id}) { deletedId } }', {
      id,
    });
    expect(body.data.deleteHogFunction.deletedId).toBe(id);
    expect(h.upstreamCalls().map((c) => [c.method, c.body])).toEqual([['PATCH', { deleted: true }]]);
    const after = await h.gql(`{ project(projectId: "1") { hogFunction(uuid: "${WEBHOOK}") { name } } }`);
    expect(after.body.data.project.hogFunction).toBeNull();
  });

  it('test-runs a saved function and a new one, with async calls mocked by default', async () => {
    const id = await idOf(WEBHOOK);
    const saved = await h.gql(
      'mutation($id: ID!) { testHogFunction(input: {id: $id, globals: {event: {event: "$pageview"}}}) { status errors logs { level message } } }',
      { id },
    );
    expect(saved.body.data.testHogFunction.status).toBe('success');
    expect(saved.body.data.testHogFunction.logs[0].message).toContain('mock_async_functions: true');
    const fresh = await h.gql(
      'mutation { testHogFunction(input: {projectId: "1", configuration: {hog: "return event"}, globals: {event: {event: "x"}}}) { status } }',
    );
    expect(fresh.body.data.testHogFunction.status).toBe('success');
    expect(h.upstreamCalls({ method: 'POST' }).map((c) => c.path)).toEqual([
      `${FUNCTIONS}${WEBHOOK}/invocations/`,
      `${FUNCTIONS}new/invocations/`,
    ]);
    const neither = await h.gql('mutation { testHogFunction(input: {globals: {}}) { status } }');
    expect(neither.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('test-runs a saved function with its stored configuration, secrets as {"secret": true}', async () => {
    const id = await idOf(SLACK);
    h.upstream.clearRequests();
    const { body } = await h.gql(
      'mutation($id: ID!) { testHogFunction(input: {id: $id, globals: {event: {event: "$pageview"}}}) { status } }',
      { id },
    );
    expect(body.data.testHogFunction.status).toBe('success');
    // PostHog refuses a test run without `configuration`: the gateway sends the stored one.
    const [sent] = h.upstreamCalls({ method: 'POST' });
    const configuration = (sent!.body as { configuration: Record<string, unknown> }).configuration;
    expect(configuration).toMatchObject({
      type: 'destination',
      name: 'Slack #alerts',
      hog: expect.any(String),
      inputs_schema: expect.any(Array),
      inputs: { slack_workspace: { secret: true }, channel: { value: 'value-1' } },
      filters: expect.any(Object),
    });
    expect(JSON.stringify(sent!.body)).not.toContain('secret-1');
    // With a configuration given, that is what is sent, and the function is not read.
    h.upstream.clearRequests();
    await h.gql(
      'mutation($id: ID!) { testHogFunction(input: {id: $id, configuration: {hog: "return null"}, globals: {event: {event: "x"}}}) { status } }',
      { id },
    );
    expect(
      h.upstreamCalls().map((c) => [c.method, (c.body as { configuration?: unknown })?.configuration]),
    ).toEqual([['POST', { hog: 'return null' }]]);
  });

  it('rearranges transformations, sending {"orders": {uuid: n}}', async () => {
    const geoip = '018f0a5e-0007-7000-8000-000000000007';
    const drop = '018f0a5e-0007-7000-8000-000000000008';
    const [a, b] = [await idOf(geoip), await idOf(drop)];
    h.upstream.clearRequests();
    const { body } = await h.gql(
      'mutation($a: ID!, $b: ID!) { rearrangeHogFunctions(input: {projectId: "1", orders: [{id: $a, executionOrder: 2}, {id: $b, executionOrder: 1}]}) { hogFunctions { name executionOrder } } }',
      { a, b },
    );
    expect(body.data.rearrangeHogFunctions.hogFunctions).toEqual([
      { name: 'Drop bots', executionOrder: 1 },
      { name: 'GeoIP', executionOrder: 2 },
    ]);
    expect(h.upstreamCalls({ method: 'PATCH' }).map((c) => c.body)).toEqual([
      { orders: { [geoip]: 2, [drop]: 1 } },
    ]);
  });
});

/** The two kinds PostHog kept before batch exports joined: batch-exports.test.ts covers all three. */
const DESTINATIONS = `query($first: Int, $after: String, $last: Int, $enabled: Boolean) {
  project(projectId: "1") { destinations(first: $first, after: $after, last: $last, enabled: $enabled, kinds: [HOG_FUNCTION, PLUGIN_CONFIG]) {
    totalCount
    edges { node { __typename id name enabled ... on HogFunction { type } ... on DestinationConfig { plugin } } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  } }
}`;

interface DestinationNode {
  __typename: string;
  id: string;
  name: string;
  enabled: boolean;
  type?: string;
  plugin?: number;
}

describe('Project.destinations: one list over hog functions and plugin configs', () => {
  for (const [dialect, legacyRoutes] of [
    ['posthog-2026', true],
    ['posthog-2026', false],
    ['posthog', true],
  ] as const) {
    describe(`${dialect}${legacyRoutes ? '' : ', no legacy routes'}`, () => {
      let h: Harness;
      beforeAll(async () => {
        h = await startHarness({ dialect, upstream: { legacyRoutes } });
      });
      afterAll(() => h.close());

      /** What the upstream holds that the list should show, from its own store. */
      const expected = () => {
        const store = h.upstream.store;
        const functions = [...store.hogFunctions.values()].filter((f) =>
          ['destination', 'site_destination', 'legacy_destination'].includes(f.type),
        );
        const superseded = new Set(
          functions
            .filter((f) => f.type === 'legacy_destination' && f.enabled)
            .map(
              (f) =>
                store.plugins.get(
                  [...store.plugins.values()].find(
                    (p) => `plugin-${p.url.split('/').pop()}` === f.templateId,
                  )!.id,
                )!.id,
            ),
        );
        const configs = legacyRoutes
          ? [...store.configs.values()].filter(
              (c) => c.projectId === 1 && !c.deleted && !superseded.has(c.plugin),
            )
          : [];
        return { functions: functions.length, configs: configs.length };
      };

      it('walks every destination forward once, hog functions first, with totalCount, and back from the end', async () => {
        const { functions, configs } = expected();
        const seen: DestinationNode[] = [];
        let after: string | null = null;
        for (let pages = 0; pages < 10; pages++) {
          const { body } = await h.gql(DESTINATIONS, { first: 50, after });
          expect(body.errors).toBeUndefined();
          const c = body.data.project.destinations;
          expect(c.totalCount).toBe(functions + configs);
          seen.push(...c.edges.map((e: { node: DestinationNode }) => e.node));
          if (!c.pageInfo.hasNextPage) break;
          after = c.pageInfo.endCursor;
        }
        expect(seen).toHaveLength(functions + configs);
        expect(new Set(seen.map((d) => d.id)).size).toBe(seen.length);
        expect(seen.slice(0, functions).every((d) => d.__typename === 'HogFunction')).toBe(true);
        expect(seen.slice(functions).every((d) => d.__typename === 'DestinationConfig')).toBe(true);
        const last = await h.gql(DESTINATIONS, { last: 3 });
        expect(
          last.body.data.project.destinations.edges.map((e: { node: DestinationNode }) => e.node.id),
        ).toEqual(seen.slice(-3).map((d) => d.id));
      });

      it('filters by enabled', async () => {
        const { body } = await h.gql(DESTINATIONS, { first: 100, enabled: false });
        const nodes: DestinationNode[] = body.data.project.destinations.edges.map(
          (e: { node: DestinationNode }) => e.node,
        );
        expect(nodes.every((d) => d.enabled === false)).toBe(true);
      });
    });
  }

  it('leaves out the configs an enabled legacy_destination supersedes, reading each plugin once', async () => {
    const h = await startHarness({ dialect: 'posthog-2026' });
    try {
      const { body } = await h.gql(DESTINATIONS, { first: 100 });
      const nodes: DestinationNode[] = body.data.project.destinations.edges.map(
        (e: { node: DestinationNode }) => e.node,
      );
      const plugins = new Set(nodes.filter((d) => d.__typename === 'DestinationConfig').map((d) => d.plugin));
      // Webhook (1) and S3 (2) are migrated and enabled; BigQuery's (3) migration is disabled.
      expect([...plugins].sort()).toEqual([3, 4, 5]);
      const retrieves = h.upstreamCalls().filter((c) => /pipeline_destination_configs\/\d+\/$/.test(c.path));
      expect(retrieves).toHaveLength(5);
      // A page of hog functions, two pages of configs (150), a retrieve per plugin: 8 in all.
      expect(h.upstreamCalls()).toHaveLength(8);
    } finally {
      await h.close();
    }
  });

  it("remembers each plugin's template for the key that read it, and for no other key", async () => {
    const h = await startHarness({ dialect: 'posthog-2026' });
    const retrieves = () =>
      h.upstreamCalls().filter((c) => /pipeline_destination_configs\/\d+\/$/.test(c.path));
    const ids = (body: { data: { project: { destinations: { edges: { node: DestinationNode }[] } } } }) =>
      body.data.project.destinations.edges.map((e) => e.node.id);
    try {
      const first = await h.gql(DESTINATIONS, { first: 100 });
      expect(retrieves()).toHaveLength(5);

      // The same key, spelt otherwise: the lists are read again, the plugins not.
      h.upstream.clearRequests();
      const again = await h.post(JSON.stringify({ query: DESTINATIONS, variables: { first: 100 } }), {
        authorization: 'bearer   phx_full',
      });
      expect(ids(again.body as never)).toEqual(ids(first.body));
      expect(retrieves()).toHaveLength(0);
      expect(h.upstreamCalls()).toHaveLength(3);

      // Another key (the same user's) reads every plugin for itself.
      h.upstream.clearRequests();
      const other = await h.gql(DESTINATIONS, { first: 100 }, 'phx_legacy');
      expect(ids(other.body)).toEqual(ids(first.body));
      expect(retrieves().map((c) => c.authorization)).toEqual(Array(5).fill('Bearer phx_legacy'));

      // What supersedes is read fresh each time: a legacy_destination turned off shows its
      // plugin's configs on the next request, with no retrieve.
      const s3 = [...h.upstream.store.hogFunctions.values()].find((f) => f.name === 'S3 Export (migrated)')!;
      s3.enabled = false;
      h.upstream.clearRequests();
      const after = await h.gql(DESTINATIONS, { first: 100 });
      const plugins = new Set(
        after.body.data.project.destinations.edges
          .map((e: { node: DestinationNode }) => e.node)
          .filter((d: DestinationNode) => d.__typename === 'DestinationConfig')
          .map((d: DestinationNode) => d.plugin),
      );
      expect([...plugins].sort()).toEqual([2, 3, 4, 5]);
      expect(retrieves()).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

describe('the combined view GraphiQL opens with, against today’s PostHog', () => {
  it('shows destinations of both kinds and the activity log in one request, without an error', async () => {
    const { EXAMPLE_QUERY } = await import('../../src/server/example-query.ts');
    const h = await startHarness({ dialect: 'posthog-2026' });
    try {
      const { body } = await h.gql(EXAMPLE_QUERY);
      expect(body.errors).toBeUndefined();
      const kinds = body.data.project.destinations.edges.map(
        (e: { node: { __typename: string } }) => e.node.__typename,
      );
      expect(new Set(kinds)).toEqual(new Set(['HogFunction']));
      expect(body.data.project.destinations.totalCount).toBeGreaterThan(6);
      const last = await h.gql(
        'query($after: String) { project(projectId: "@current") { destinations(first: 100, after: $after) { edges { node { __typename } } } } }',
        { after: body.data.project.destinations.pageInfo.endCursor },
      );
      expect(
        new Set(
          last.body.data.project.destinations.edges.map(
            (e: { node: { __typename: string } }) => e.node.__typename,
          ),
        ),
      ).toEqual(new Set(['HogFunction', 'DestinationConfig', 'BatchExport']));
      expect(body.data.project.activityLog.edges).toHaveLength(5);
    } finally {
      await h.close();
    }
  });
});
