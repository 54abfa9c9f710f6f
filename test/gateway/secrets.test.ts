// A secret never leaves the gateway (issue 39, item 3), even in front of an upstream that leaks
// (the reference upstream started with `leakSecrets`, answering secret values in plain text in
// inputs, mappings and the activity log): no answer, error or log line of the gateway carries a
// secret value, and what the gateway sends back for a test run keeps secrets as {"secret": true}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const SLACK = '018f0a5e-0007-7000-8000-000000000002';
/** Seeded secret values look like `secret-<n>-<key>` (hog-seed.ts); written ones use this. */
const WRITTEN_SECRET = 'xoxb-written-secret-value';
const SECRET_TEXT = /secret-\d+-|xoxb-written-secret/;

const MAPPINGS = [
  {
    name: 'Pageviews',
    inputs_schema: [{ key: 'token', type: 'string', label: 'Token', secret: true, required: false }],
    inputs: { token: { value: `${WRITTEN_SECRET}-mapping` } },
  },
];

describe('secrets, in front of an upstream that leaks them', () => {
  let h: Harness;
  const answers: unknown[] = [];
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const answer = await h.gql(query, variables);
    answers.push(answer.body);
    return answer.body;
  };

  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', upstream: { leakSecrets: true } });
  });
  afterAll(() => h.close());

  it('the upstream really leaks (so the rest of this file proves something)', async () => {
    const answer = await fetch(`${h.upstream.url}/api/projects/1/hog_functions/${SLACK}/`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    expect(await answer.text()).toMatch(SECRET_TEXT);
  });

  it('answers secret inputs, mapping inputs and activity changes redacted', async () => {
    const { data: created } = await gql(
      'mutation($schema: JSON, $inputs: JSON, $mappings: JSON) { createHogFunction(input: {projectId: "1", name: "Keyed webhook", hog: "fetch(inputs.url)", inputsSchema: $schema, inputs: $inputs, mappings: $mappings}) { hogFunction { id uuid inputs mappings } } }',
      {
        schema: [
          { key: 'url', type: 'string', label: 'URL', secret: false, required: true },
          { key: 'api_key', type: 'string', label: 'API key', secret: true, required: true },
        ],
        inputs: { url: { value: 'https://example.com' }, api_key: { value: WRITTEN_SECRET } },
        mappings: MAPPINGS,
      },
    );
    expect(created).not.toBeNull();
    const fn = created.createHogFunction.hogFunction;
    expect(fn.inputs.api_key).toEqual({ secret: true });
    expect(fn.mappings[0].inputs.token).toEqual({ secret: true });
    const updated = await gql(
      `mutation($id: ID!) { updateHogFunction(input: {id: $id, inputs: {url: {value: "https://example.org"}, api_key: {value: "${WRITTEN_SECRET}-2"}}}) { hogFunction { inputs } } }`,
      { id: fn.id },
    );
    expect(updated.errors).toBeUndefined();
    const { data } = await gql(
      `{ project(projectId: "1") {
          hogFunctions(first: 50) { edges { node { inputs mappings template { inputsSchema } } } }
          slack: hogFunction(uuid: "${SLACK}") { inputs mappings logs(first: 5) { edges { node { message } } } }
          activityLog(first: 50, scope: "HogFunction") { edges { node { detail hogFunction { inputs } } } }
        } }`,
    );
    const updates = data.project.activityLog.edges
      .flatMap(
        (e: { node: { detail: { changes: { field: string; before: unknown; after: unknown }[] | null } } }) =>
          e.node.detail.changes ?? [],
      )
      .filter((c: { field: string }) => ['inputs', 'encrypted_inputs'].includes(c.field));
    expect(updates.length).toBeGreaterThan(0);
    for (const change of updates) expect([change.before, change.after]).toEqual(['masked', 'masked']);
    expect(data.project.slack.inputs.slack_workspace).toEqual({ secret: true });
  });

  it('sends a test run {"secret": true}, never a value, and its answer carries none', async () => {
    h.upstream.clearRequests();
    const { data } = await gql(
      `mutation { testHogFunction(input: {id: "${Buffer.from(`HogFunction:1:${SLACK}`).toString('base64')}", globals: {event: {event: "$pageview"}}}) { status logs { message } } }`,
    );
    expect(data.testHogFunction.status).toBe('success');
    const sent = JSON.stringify(h.upstreamCalls({ method: 'POST' }).map((c) => c.body));
    expect(sent).toContain('{"secret":true}');
    expect(sent).not.toMatch(SECRET_TEXT);
  });

  it('leaves no secret in any answer, error or log line', () => {
    expect(answers.length).toBeGreaterThanOrEqual(4);
    for (const answer of answers) expect(JSON.stringify(answer)).not.toMatch(SECRET_TEXT);
    expect(h.logs.length).toBeGreaterThan(0);
    for (const line of h.logs) expect(line).not.toMatch(SECRET_TEXT);
  });
});
