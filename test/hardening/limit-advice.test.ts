// A refusal says what to change (issue 41, item 5): QUERY_TOO_COMPLEX names the connection that
// costs most and the largest `first` there with which the operation fits (and that query then
// runs); a limit the upstream's data breaks at run time says so with its own reason, never
// blaming the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

// Against mid-2024 PostHog (no advanced_activity_logs), each config's activity is a call of its own.
const CONFIGS_WITH_ACTIVITY = `query($first: Int) { project(projectId: "1") {
  destinationConfigs(first: $first) { edges { node { name activity(first: 1) { edges { node { activity } } } } } }
} }`;

describe('advice on a refused operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog' });
  });
  afterAll(() => h.close());

  it('names the costliest connection and a first that fits, and that first is served', async () => {
    const { body } = await h.gql(CONFIGS_WITH_ACTIVITY, { first: 100 });
    const error = body.errors[0];
    expect(error.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'upstreamCalls',
      advice: { path: 'project.destinationConfigs', argument: 'first', size: 100, fits: 49 },
    });
    const fits = error.extensions.advice.fits as number;
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(100);
    expect(error.message).toContain(
      `\`project.destinationConfigs\` (first: 100); with first: ${fits} there it fits.`,
    );
    h.upstream.clearRequests();
    const served = await h.gql(CONFIGS_WITH_ACTIVITY, { first: fits });
    expect(served.body.errors?.[0]?.extensions?.code).not.toBe('QUERY_TOO_COMPLEX');
    expect(served.body.data.project.destinationConfigs.edges).toHaveLength(fits);
    const over = await h.gql(CONFIGS_WITH_ACTIVITY, { first: fits + 1 });
    expect(over.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('says when no first is small enough alone, and what to do instead', async () => {
    const strict = await startHarness({ dialect: 'posthog', env: { MAX_UPSTREAM_CALLS: '1' } });
    try {
      const { body } = await strict.gql(CONFIGS_WITH_ACTIVITY, { first: 5 });
      expect(body.errors[0].extensions.advice).toMatchObject({
        path: 'project.destinationConfigs',
        fits: null,
      });
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
    // destinations is priced at a project's ordinary size (11 calls); project 1's plugin configs
    // must be read whole (an enabled legacy_destination supersedes some), and it has 1,650.
    const h = await startHarness({ dialect: 'posthog-2026', env: { MAX_UPSTREAM_CALLS: '11' } });
    try {
      const store = h.upstream.store;
      const config = [...store.configs.values()].find((c) => c.projectId === 1 && !c.deleted)!;
      for (let i = 0; i < 1_500; i++) {
        const { id: _id, createdAtMicros: _c, updatedAtMicros: _u, ...fields } = config;
        store.createConfig({ ...fields, name: `Bulk ${i}` });
      }
      const { body } = await h.gql(
        '{ project(projectId: "1") { destinations(first: 1, kinds: [PLUGIN_CONFIG]) { totalCount } } }',
      );
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
