// A key known before it is spent: the gateway reads GET /api/personal_api_keys/@current/ once per
// key, and a field the key's scopes (or projects) cannot serve fails FORBIDDEN without its call;
// an upstream without the route is called as before. Calls counted in the emulator's log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const CURRENT = '/api/personal_api_keys/@current/';
const ON = { KEY_SCOPES_REFRESH_MS: '300000' };

const BOTH = /* GraphQL */ `
  query Both($projectId: String!) {
    project(projectId: $projectId) {
      batchExports(first: 3) { edges { node { name } } }
      hogFunctions(first: 3) { edges { node { name } } }
    }
  }`;

const HOG = `query Hog { project(projectId: "1") { hogFunctions(first: 3) { edges { node { name } } } } }`;

// biome-ignore lint/suspicious/noExplicitAny: GraphQL errors are read field by field.
const errorAt = (body: any, field: string) => body.errors?.find((e: any) => e.path?.at(-1) === field);

describe('scopes known before a call, posthog-2026', () => {
  let h: Harness;
  const calls = (part: string) => h.upstream.requests.filter((r) => r.path.includes(part)).length;

  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: ON });
    const key = (value: string, scopes: string[], scopedTeams: number[] = []) =>
      h.upstream.store.keys.set(value, { value, userId: 1, scopes, currentProjectId: 1, scopedTeams });
    key('phx_changing', ['*']);
    key('phx_team_two', ['*'], [2]);
    key('phx_plugins_only', ['plugin:read']);
    key('phx_often_refused', ['*']);
  });
  afterAll(() => h.close());

  it('fails a field the key lacks the scope of, naming it, without its call, and serves the rest', async () => {
    h.upstream.clearRequests();
    const { body } = await h.gql(BOTH, { projectId: '1' }, 'phx_batch_read');
    expect(body.data.project.batchExports.edges.length).toBeGreaterThan(0);
    expect(body.data.project.hogFunctions).toBeNull();
    expect(errorAt(body, 'hogFunctions').extensions).toMatchObject({
      code: 'FORBIDDEN',
      scope: 'hog_function:read',
      requiredScope: 'hog_function:read',
    });
    expect(calls('/hog_functions/')).toBe(0);
    expect(calls('/batch_exports/')).toBeGreaterThan(0);
    expect(calls(CURRENT)).toBe(1);
  });

  it('reads a key once for many requests, and says what it may do in viewer', async () => {
    h.upstream.clearRequests();
    for (let i = 0; i < 4; i++) {
      const { body } = await h.gql(BOTH, { projectId: '1' }, 'phx_full');
      expect(body.errors).toBeUndefined();
    }
    const { body } = await h.gql('{ viewer { known scopes projectIds organizationIds } }', {}, 'phx_full');
    expect(body.data.viewer).toEqual({ known: true, scopes: ['*'], projectIds: null, organizationIds: null });
    expect(calls(CURRENT)).toBe(1);
    expect(calls('/hog_functions/')).toBe(4);
  });

  it('fails a project outside the key’s projects without a call', async () => {
    h.upstream.clearRequests();
    const { body } = await h.gql(HOG, {}, 'phx_team_two');
    expect(errorAt(body, 'hogFunctions').extensions).toMatchObject({ code: 'FORBIDDEN', projectId: '1' });
    expect(calls('/hog_functions/')).toBe(0);
    const viewer = await h.gql('{ viewer { projectIds } }', {}, 'phx_team_two');
    expect(viewer.body.data.viewer.projectIds).toEqual(['2']);
  });

  it('leaves a destination kind the key may not read out of the list without its call, saying why', async () => {
    const DESTINATIONS = `{ project(projectId: "1") { destinations(first: 100) { totalCount edges { node { __typename } } } } }`;
    for (const [key, missing] of [
      ['phx_hog_rw', ['BATCH_EXPORT']],
      ['phx_plugins_only', ['BATCH_EXPORT', 'HOG_FUNCTION']],
    ] as const) {
      await h.gql('{ viewer { known } }', {}, key);
      h.upstream.clearRequests();
      const { body } = await h.gql(DESTINATIONS, {}, key);
      expect(body.data.project.destinations.edges.length).toBeGreaterThan(0);
      const errors = (body.errors ?? []) as { path: string[]; extensions: Record<string, unknown> }[];
      expect(errors.map((e) => e.extensions.kind).sort()).toEqual([...missing].sort());
      for (const error of errors) {
        expect(error.path).toEqual(['project', 'destinations']);
        expect(error.extensions).toMatchObject({ code: 'FORBIDDEN' });
        expect(error.extensions.upstream).toBeUndefined();
      }
      const batch = errors.find((e) => e.extensions.kind === 'BATCH_EXPORT')!;
      expect(batch.extensions).toMatchObject({
        requiredScope: 'batch_export:read',
        scope: 'batch_export:read',
      });
      expect(calls('/batch_exports/')).toBe(0);
      // Nor are hog functions read to tell which configs a legacy_destination supersedes.
      if (key === 'phx_plugins_only') expect(calls('/hog_functions/')).toBe(0);
      expect(calls(CURRENT)).toBe(0);
    }
  });

  it('refuses a node whose type the key may not read without its call, and serves the others', async () => {
    const ids = await h.gql(
      `{ project(projectId: "1") { hogFunctions(first: 1) { edges { node { id } } } batchExports(first: 1) { edges { node { id } } } } }`,
      {},
      'phx_full',
    );
    const hog = ids.body.data.project.hogFunctions.edges[0].node.id;
    const batch = ids.body.data.project.batchExports.edges[0].node.id;
    await h.gql('{ viewer { known } }', {}, 'phx_batch_read');
    h.upstream.clearRequests();
    const { body } = await h.gql(
      'query N($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids: [hog, batch] },
      'phx_batch_read',
    );
    expect(body.data.nodes).toEqual([null, { id: batch }]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      path: ['nodes', 0],
      extensions: { code: 'FORBIDDEN', requiredScope: 'hog_function:read' },
    });
    expect(calls('/hog_functions/')).toBe(0);
    expect(calls('/batch_exports/')).toBe(1);
  });

  it('reads the key again after a 403 its scopes did not explain', async () => {
    h.upstream.clearRequests();
    expect((await h.gql(HOG, {}, 'phx_changing')).body.errors).toBeUndefined();
    // The key loses hog_function:read in PostHog: the next call is refused there, once.
    h.upstream.store.keys.get('phx_changing')!.scopes = ['batch_export:read'];
    const refused = await h.gql(HOG, {}, 'phx_changing');
    expect(errorAt(refused.body, 'hogFunctions').extensions.upstream).toMatchObject({ status: 403 });
    expect(calls('/hog_functions/')).toBe(2);
    const known = await h.gql(HOG, {}, 'phx_changing');
    expect(errorAt(known.body, 'hogFunctions').extensions).toMatchObject({ scope: 'hog_function:read' });
    expect(errorAt(known.body, 'hogFunctions').extensions.upstream).toBeUndefined();
    expect(calls('/hog_functions/')).toBe(2);
    expect(calls(CURRENT)).toBe(2);
  });

  it('reads a key again after unexplained 403s once per KEY_SCOPES_REFRESH_MS/10, not on each', async () => {
    h.upstream.clearRequests();
    // Refused by something its scopes do not say (as a project's access control would).
    h.upstream.faults.add({ path: '/hog_functions/', action: { kind: 'status', status: 403 } });
    try {
      for (let i = 0; i < 4; i++) {
        const { body } = await h.gql(HOG, {}, 'phx_often_refused');
        expect(errorAt(body, 'hogFunctions').extensions.upstream).toMatchObject({ status: 403 });
      }
    } finally {
      h.upstream.faults.clear();
    }
    expect(calls('/hog_functions/')).toBe(4);
    // The first read, and one more after the first 403; none after the next three.
    expect(calls(CURRENT)).toBe(2);
  });

  it('answers viewer UNAUTHENTICATED for a key PostHog refuses, reading it once', async () => {
    h.upstream.clearRequests();
    const first = await h.gql('{ viewer { known } }', {}, 'phx_nobody_issued');
    expect(first.body.data).toBeNull();
    expect(first.body.errors[0]).toMatchObject({
      path: ['viewer'],
      extensions: { code: 'UNAUTHENTICATED', upstream: { status: 401 } },
    });
    // Lately refused (the key's standing): the same code, without a call.
    const again = await h.gql('{ viewer { known } }', {}, 'phx_nobody_issued');
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', recentlyRefused: true });
    const field = await h.gql(HOG, {}, 'phx_nobody_issued');
    expect(errorAt(field.body, 'hogFunctions').extensions.code).toBe('UNAUTHENTICATED');
    expect(calls(CURRENT)).toBe(1);
    expect(calls('/hog_functions/')).toBe(0);
  });

  it('calls as before for a credential that cannot read itself, asking it once', async () => {
    h.upstream.clearRequests();
    // As PostHog answers an OAuth token there (PersonalApiKeySelfAccessPermission is for personal keys).
    h.upstream.faults.add({ path: CURRENT, action: { kind: 'status', status: 403 } });
    for (let i = 0; i < 3; i++) await h.gql(HOG, {}, 'phx_batch_read');
    h.upstream.faults.clear();
    expect(calls(CURRENT)).toBe(0);
    const other = 'phx_plugin_rw';
    h.upstream.faults.add({ path: CURRENT, action: { kind: 'status', status: 403 } });
    for (let i = 0; i < 3; i++) {
      const { body } = await h.gql(HOG, {}, other);
      expect(errorAt(body, 'hogFunctions').extensions.upstream).toMatchObject({ status: 403 });
    }
    h.upstream.faults.clear();
    expect(calls(CURRENT)).toBe(1);
    expect(calls('/hog_functions/')).toBe(3);
    const viewer = await h.gql('{ viewer { known scopes } }', {}, other);
    expect(viewer.body.data.viewer).toEqual({ known: false, scopes: null });
  });

  it('calls as before for a key whose self-read PostHog answers 404, asking it once', async () => {
    h.upstream.clearRequests();
    // As an upstream answers a route it does not have, for this key alone.
    h.upstream.faults.add({ path: CURRENT, action: { kind: 'status', status: 404 } });
    try {
      for (let i = 0; i < 3; i++) {
        const { body } = await h.gql(HOG, {}, 'phx_read');
        // The field was called, not refused: PostHog's own 403 for the scope the key lacks.
        expect(errorAt(body, 'hogFunctions').extensions).toMatchObject({
          code: 'FORBIDDEN',
          upstream: { status: 403 },
        });
      }
      const { body } = await h.gql(BOTH, { projectId: '1' }, 'phx_read');
      expect(errorAt(body, 'batchExports').extensions.upstream).toMatchObject({ status: 403 });
    } finally {
      h.upstream.faults.clear();
    }
    expect(calls(CURRENT)).toBe(1);
    expect(calls('/hog_functions/')).toBe(4);
    expect(calls('/batch_exports/')).toBe(1);
    const viewer = await h.gql('{ viewer { known scopes } }', {}, 'phx_read');
    expect(viewer.body.data.viewer).toEqual({ known: false, scopes: null });
    expect(calls(CURRENT)).toBe(1);
  });
});

describe('an upstream without the route (spec dialect)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec', env: ON });
  });
  afterAll(() => h.close());

  it('asks it once, without a key, as the gateway starts, and then calls as before', async () => {
    expect(h.startupCalls.filter((r) => r.path === CURRENT && !r.authorization)).toHaveLength(1);
    const query = `{ project(projectId: "1") { destinationConfigs(first: 2) { edges { node { id } } } } }`;
    for (let i = 0; i < 2; i++) {
      const { body } = await h.gql(query, {}, 'phx_batch_read');
      expect(body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', upstream: { status: 403 } });
    }
    expect(h.upstreamCalls({ path: CURRENT })).toHaveLength(0);
    expect(h.upstreamCalls().filter((r) => r.path.includes('pipeline_destination_configs'))).toHaveLength(2);
  });
});
