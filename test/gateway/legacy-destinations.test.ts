// Legacy destinations through the gateway against today's PostHog (posthog-2026): migrated
// plugin configs listed and read as hog functions with their deprecated template, the plugin
// configs `destinations` hides only while an enabled legacy_destination of their template exists,
// a key that may read configs but not hog functions, and a write PostHog stored otherwise than
// asked (extensions.warnings).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const CONFIGS = '/api/projects/1/pipeline_destination_configs/';
const DESTINATIONS = `query($first: Int) { project(projectId: "1") { destinations(first: $first) {
  totalCount edges { node { __typename ... on DestinationConfig { plugin } ... on HogFunction { type } } } } } }`;

interface Node {
  __typename: string;
  plugin?: number;
}
const pluginsListed = (body: { data: { project: { destinations: { edges: { node: Node }[] } } } }) =>
  [
    ...new Set(body.data.project.destinations.edges.map((e) => e.node.plugin).filter((p) => p !== undefined)),
  ].sort();

describe('legacy destinations, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('lists and reads migrated rows as hog functions with their deprecated template, in one call', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { hogFunctions(types: ["legacy_destination"]) { edges { node { name type enabled hog template { id status } } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const nodes = body.data.project.hogFunctions.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toContainEqual({
      name: 'S3 Export (migrated)',
      type: 'legacy_destination',
      enabled: true,
      hog: '',
      template: { id: 'plugin-s3-export-plugin', status: 'deprecated' },
    });
    expect(h.upstreamCalls()).toHaveLength(1);
    const template = await h.gql(
      '{ project(projectId: "1") { hogFunctionTemplate(id: "plugin-s3-export-plugin") { id status } } }',
    );
    expect(template.body.data.project.hogFunctionTemplate).toEqual({
      id: 'plugin-s3-export-plugin',
      status: 'deprecated',
    });
  });

  it('hides a plugin’s configs while its legacy_destination is enabled, and shows them once it is disabled', async () => {
    const enabled = await h.gql(DESTINATIONS, { first: 100 });
    expect(enabled.body.errors).toBeUndefined();
    // Webhook (1) and S3 (2) are superseded; BigQuery's (3) function is disabled.
    expect(pluginsListed(enabled.body)).toEqual([3, 4, 5]);
    // A page of functions, two pages of configs, one retrieve per plugin, a page of batch exports.
    expect(h.upstreamCalls({ path: FUNCTIONS })).toHaveLength(1);
    expect(h.upstreamCalls({ path: CONFIGS })).toHaveLength(2);
    expect(h.upstreamCalls()).toHaveLength(9);

    const s3 = [...h.upstream.store.hogFunctions.values()].find((f) => f.name === 'S3 Export (migrated)')!;
    const off = await h.gql(
      `mutation($id: ID!) { updateHogFunction(input: {id: $id, enabled: false}) { hogFunction { enabled } } }`,
      { id: Buffer.from(`HogFunction:1:${s3.id}`).toString('base64') },
    );
    expect(off.body.errors).toBeUndefined();
    expect(off.body.data.updateHogFunction.hogFunction.enabled).toBe(false);
    h.upstream.clearRequests();
    const disabled = await h.gql(DESTINATIONS, { first: 100 });
    expect(pluginsListed(disabled.body)).toEqual([2, 3, 4, 5]);
    expect(h.upstreamCalls({ path: FUNCTIONS })).toHaveLength(1);
  });

  it('gives a key without hog_function:read its configs, and a FORBIDDEN error at the hog functions', async () => {
    const { body } = await h.gql(DESTINATIONS, { first: 100 }, 'phx_read');
    expect(pluginsListed(body)).toEqual([1, 2, 3, 4, 5]);
    expect(
      body.data.project.destinations.edges.every(
        (e: { node: Node }) => e.node.__typename === 'DestinationConfig',
      ),
    ).toBe(true);
    // phx_read may read neither hog functions nor batch exports: one error for each kind.
    const errors = body.errors.map((e: { path: string[]; extensions: Record<string, unknown> }) => ({
      path: e.path,
      code: e.extensions.code,
      kind: e.extensions.kind,
      requiredScope: e.extensions.requiredScope,
    }));
    expect(errors).toEqual([
      {
        path: ['project', 'destinations'],
        code: 'FORBIDDEN',
        kind: 'HOG_FUNCTION',
        requiredScope: 'hog_function:read',
      },
      {
        path: ['project', 'destinations'],
        code: 'FORBIDDEN',
        kind: 'BATCH_EXPORT',
        requiredScope: 'batch_export:read',
      },
    ]);
    // The refused function lists (the destinations' and the superseding check's), one page of configs.
    expect(h.upstreamCalls({ path: CONFIGS })).toHaveLength(1);
  });
});

describe('a write PostHog stored otherwise than asked', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const CREATE =
    'mutation($filters: JSON) { createHogFunction(input: {projectId: "1", hog: "return event", enabled: true, filters: $filters}) { hogFunction { enabled } } }';

  it('answers what PostHog stored, with a STORED_DISABLED warning, when filters stop compiling during the save', async () => {
    const armed = await fetch(`${h.upstream.url}/__control/cohorts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, turnsStaticDuringNextSave: true }),
    });
    expect(armed.status).toBe(200);
    const { body } = await h.gql(CREATE, {
      filters: { properties: [{ type: 'cohort', key: 'id', value: 1 }] },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.createHogFunction.hogFunction.enabled).toBe(false);
    expect(body.extensions.warnings).toEqual([
      {
        code: 'STORED_DISABLED',
        message: expect.stringContaining("Can't use cohorts in real-time filters"),
        path: ['createHogFunction', 'hogFunction', 'enabled'],
      },
    ]);
    expect(h.upstreamCalls({ method: 'POST', path: FUNCTIONS })).toHaveLength(1);
  });

  it('refuses filters that do not compile at validation, with no warning', async () => {
    const { body } = await h.gql(CREATE, {
      filters: { properties: [{ type: 'cohort', key: 'id', value: 2 }] },
    });
    expect(body.data.createHogFunction).toBeNull();
    expect(body.errors[0].message).toContain('Invalid filter configuration');
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.extensions?.warnings).toBeUndefined();
  });

  it('carries no warning when PostHog stored what was asked', async () => {
    const { body } = await h.gql(CREATE, {
      filters: { properties: [{ type: 'cohort', key: 'id', value: 1 }] },
    });
    expect(body.data.createHogFunction.hogFunction.enabled).toBe(true);
    expect(body.extensions?.warnings).toBeUndefined();
  });
});
