// A route PostHog marks as going (Deprecation, Sunset, Link rel="sunset"; the emulator's
// /__control/answer-headers adds them, a test control) reaches `extensions.warnings` of each
// operation that touched it, once per route, and gateway_upstream_deprecated_answers_total by
// route; an operation that did not touch it carries no warning; malformed values are ignored.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { parsePrometheus, total } from '../support/prometheus.ts';

const TOKEN = 'metrics-token-deprecation-0123';
const CONFIG_ROUTE = '/api/projects/:project_id/pipeline_destination_configs/:id/';
const PROJECT_ROUTE = '/api/projects/:project_id/';
const METRIC = 'gateway_upstream_deprecated_answers_total';
const GOING = {
  deprecation: '@1735689600',
  sunset: 'Wed, 31 Dec 2025 23:59:59 GMT',
  link: '<https://posthog.com/docs/api/legacy-destinations>; rel="sunset", </api/projects/1/hog_functions/>; rel="successor-version"',
};

describe('upstream deprecation headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  async function deprecatedAnswers(route: string): Promise<number> {
    const response = await fetch(h.url.replace('/graphql', '/metrics'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    return total(parsePrometheus(await response.text()), METRIC, { route, method: 'GET' });
  }

  function deprecateConfigs(headers: Record<string, string>): void {
    h.upstream.faults.headers.add({ path: '/pipeline_destination_configs/\\d+/$/', method: 'GET', headers });
  }

  it('warns once per route of each operation that touched it, and counts every answer by route', async () => {
    deprecateConfigs(GOING);
    const before = await deprecatedAnswers(CONFIG_ROUTE);
    const touched = await h.gql(
      'query Two { project(projectId: "1") { a: destinationConfig(databaseId: 2) { name } b: destinationConfig(databaseId: 3) { name } } }',
    );
    expect(touched.body.errors).toBeUndefined();
    expect(touched.body.data.project.a.name).toEqual(expect.any(String));
    const configReads = h
      .upstreamCalls({ method: 'GET' })
      .filter((call) => /\/pipeline_destination_configs\/\d+\/$/.test(call.path));
    expect(configReads.map((call) => call.path).sort()).toEqual([
      '/api/projects/1/pipeline_destination_configs/2/',
      '/api/projects/1/pipeline_destination_configs/3/',
    ]);
    expect(touched.body.extensions.warnings).toEqual([
      {
        code: 'UPSTREAM_DEPRECATED',
        message: expect.stringContaining(CONFIG_ROUTE),
        route: CONFIG_ROUTE,
        deprecation: '2025-01-01T00:00:00.000Z',
        sunset: '2025-12-31T23:59:59.000Z',
        link: 'https://posthog.com/docs/api/legacy-destinations',
      },
    ]);
    expect(JSON.stringify(touched.body.extensions)).not.toContain('phx_full');
    // Each answer counts, by its route template (no id, no key in a label).
    expect((await deprecatedAnswers(CONFIG_ROUTE)) - before).toBe(2);

    const untouched = await h.gql('query Name { project(projectId: "1") { name } }');
    expect(untouched.body.data.project.name).toEqual(expect.any(String));
    expect(h.upstreamCalls({ path: '/api/projects/1/' })).toHaveLength(1);
    expect(untouched.body.extensions?.warnings).toBeUndefined();
    expect(await deprecatedAnswers(PROJECT_ROUTE)).toBe(0);

    // The next operation that touches the route is told again.
    const again = await h.gql(
      'query One { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }',
    );
    expect(again.body.extensions.warnings.map((w: { route: string }) => w.route)).toEqual([CONFIG_ROUTE]);
  });

  it('a Sunset alone, or the draft form `Deprecation: true` PostHog sends, is enough', async () => {
    deprecateConfigs({ sunset: 'Fri, 31 Jul 2026 00:00:00 GMT' });
    const sunsetOnly = await h.gql(
      'query { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }',
    );
    expect(sunsetOnly.body.extensions.warnings).toEqual([
      expect.objectContaining({
        route: CONFIG_ROUTE,
        deprecation: null,
        sunset: '2026-07-31T00:00:00.000Z',
        link: null,
      }),
    ]);
    h.reset();
    deprecateConfigs({ deprecation: 'true' });
    const flagged = await h.gql(
      'query { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }',
    );
    expect(flagged.body.extensions.warnings).toEqual([
      expect.objectContaining({ code: 'UPSTREAM_DEPRECATED', deprecation: null, sunset: null, link: null }),
    ]);
  });

  it('ignores malformed values: the answer stands, with no warning and no count', async () => {
    const before = await deprecatedAnswers(CONFIG_ROUTE);
    deprecateConfigs({
      deprecation: '@1735689600.5',
      sunset: 'Thu, 31 Dec 2025 23:59:59 GMT',
      link: '<ftp://posthog.com/sunset>; rel="sunset", <https://user:pw@posthog.com/>; rel=sunset, </relative>; rel="sunset"',
    });
    const answer = await h.gql(
      'query { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }',
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.project.destinationConfig.name).toEqual(expect.any(String));
    expect(answer.body.extensions?.warnings).toBeUndefined();
    h.reset();
    deprecateConfigs({
      deprecation: `@${'9'.repeat(15)}`,
      sunset: `Wed, 31 Dec 2025 23:59:59 GMT${' '.repeat(100)}x`,
    });
    const huge = await h.gql(
      'query { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }',
    );
    expect(huge.body.extensions?.warnings).toBeUndefined();
    expect((await deprecatedAnswers(CONFIG_ROUTE)) - before).toBe(0);
  });
});
