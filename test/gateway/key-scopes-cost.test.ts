// The key's self-read (GET /api/personal_api_keys/@current/) is an upstream call like any other:
// while the key's grant is not yet known, `extensions.cost.estimatedCalls` and a dry run count it,
// so the estimate stays at least the calls made. Calls counted in the emulator's log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const CURRENT = '/api/personal_api_keys/@current/';
const HOG = '{ project(projectId: "1") { hogFunctions(first: 3) { edges { node { name } } } } }';

describe('the cost of a key’s first request, its self-read included', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog-2026',
      env: { KEY_SCOPES_REFRESH_MS: '300000', COST_EXTENSIONS: 'true' },
    });
  });
  afterAll(() => h.close());

  const dryRun = (key: string) =>
    h.post(JSON.stringify({ query: HOG }), { authorization: `Bearer ${key}`, 'x-dry-run': '1' });

  it('estimates the self-read while the key is not known, and not after', async () => {
    h.upstream.clearRequests();
    const first = await h.gql(HOG, {}, 'phx_full');
    expect(first.body.errors).toBeUndefined();
    expect(h.upstreamCalls({ path: CURRENT })).toHaveLength(1);
    const made = h.upstreamCalls().length;
    expect(first.body.extensions.cost.calls).toBe(made);
    expect(first.body.extensions.cost.estimatedCalls).toBe(made);
    const second = await h.gql(HOG, {}, 'phx_full');
    expect(second.body.extensions.cost).toMatchObject({ calls: 1, estimatedCalls: 1 });
    expect(h.upstreamCalls({ path: CURRENT })).toHaveLength(1);
  });

  it('counts it in a dry run of a key not yet known, which reads nothing', async () => {
    h.upstream.clearRequests();
    const unknown = await dryRun('phx_hog_rw');
    expect(unknown.body.extensions.dryRun.estimatedCalls).toBe(2);
    expect(h.upstreamCalls()).toEqual([]);
    await h.gql(HOG, {}, 'phx_hog_rw');
    const known = await dryRun('phx_hog_rw');
    expect(known.body.extensions.dryRun.estimatedCalls).toBe(1);
  });
});

describe('the self-read and MAX_UPSTREAM_CALLS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog-2026',
      env: { KEY_SCOPES_REFRESH_MS: '300000', MAX_UPSTREAM_CALLS: '2' },
    });
  });
  afterAll(() => h.close());

  it('runs an operation priced at the limit on a key’s first request, its self-read not held to it', async () => {
    const BOTH = `{ project(projectId: "1") {
      batchExports(first: 2) { edges { node { name } } }
      hogFunctions(first: 2) { edges { node { name } } } } }`;
    h.upstream.clearRequests();
    const { body } = await h.gql(BOTH, {}, 'phx_full');
    expect(body.errors).toBeUndefined();
    expect(h.upstreamCalls({ path: CURRENT })).toHaveLength(1);
    expect(h.upstreamCalls()).toHaveLength(3);
  });
});
