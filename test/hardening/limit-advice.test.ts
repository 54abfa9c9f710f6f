// A refusal says what to change (issue 41, item 5): QUERY_TOO_COMPLEX names the connection that
// costs most and the largest `first` there with which the operation fits (and that query then
// runs); a limit the upstream's data breaks at run time says so with its own reason, never
// blaming the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';

const NEW_USER = `query($first: Int) { project(projectId: "1") {
  destinations(first: $first) { edges { node { name activity(first: 1) { edges { node { activity } } } } } }
} }`;

describe('advice on a refused operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  it('names the costliest connection and a first that fits, and that first is served', async () => {
    const { body } = await h.gql(NEW_USER, { first: 100 });
    const error = body.errors[0];
    expect(error.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'upstreamCalls',
      advice: { path: 'project.destinations', argument: 'first', size: 100, fits: expect.any(Number) },
    });
    const fits = error.extensions.advice.fits as number;
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(100);
    expect(error.message).toContain(
      `\`project.destinations\` (first: 100); with first: ${fits} there it fits.`,
    );
    h.upstream.clearRequests();
    const served = await h.gql(NEW_USER, { first: fits });
    expect(served.body.errors?.[0]?.extensions?.code).not.toBe('QUERY_TOO_COMPLEX');
    expect(served.body.data.project.destinations.edges).toHaveLength(fits);
    const over = await h.gql(NEW_USER, { first: fits + 1 });
    expect(over.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('says when no first is small enough alone, and what to do instead', async () => {
    const strict = await startHarness({ dialect: 'posthog-2026', env: { MAX_UPSTREAM_CALLS: '11' } });
    try {
      const { body } = await strict.gql(NEW_USER, { first: 5 });
      expect(body.errors[0].extensions.advice).toMatchObject({ path: 'project.destinations', fits: null });
      expect(body.errors[0].message).toMatch(
        /no first there is small enough alone: select fewer fields under it, or split the operation/,
      );
    } finally {
      await strict.close();
    }
  });
});

describe('a limit the upstream’s data breaks', () => {
  it('has its own reason and does not blame the query', async () => {
    // destinations is priced at a project's ordinary size (11 calls); this project has 600 hog
    // functions of a destination kind, six pages of them, so reading it needs more than that.
    const h = await startHarness({ dialect: 'posthog-2026', env: { MAX_UPSTREAM_CALLS: '11' } });
    try {
      const store = h.upstream.store;
      const seeded = [...store.hogFunctions.values()].find((f) => f.type === 'destination')!;
      for (let i = 0; i < 600; i++) {
        const id = `018f0a5e-0099-7000-8000-${i.toString(16).padStart(12, '0')}`;
        store.hogFunctions.set(id, { ...seeded, id, name: `Bulk ${i}` });
      }
      const { body } = await h.gql('{ project(projectId: "1") { destinations(first: 1) { totalCount } } }');
      expect(body.errors[0].extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        reason: 'UPSTREAM_DATA_TOO_LARGE',
      });
      expect(body.errors[0].message).toMatch(/whatever the query asks/);
      expect(body.errors[0].extensions.advice).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
