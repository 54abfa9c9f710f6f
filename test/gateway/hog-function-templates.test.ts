// Hog function templates (issue 39, item 4): listed, filtered, searched and read by id through
// the gateway from PostHog's templates routes (the reference upstream's posthog-2026 dialect), a
// function's own template as the same type, and a function made from a template with the inputs
// its schema asks for; a refused create says how to list templates and what an input takes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const TEMPLATES = '/api/projects/1/hog_function_templates/';
const FIELDS =
  'id name type status category free code codeLanguage inputsSchema filters masking mappingTemplates iconUrl';

describe('hog function templates, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const list = async (args: string) => {
    const { body } = await h.gql(
      `{ project(projectId: "1") { hogFunctionTemplates(${args}) { totalCount edges { cursor node { id type status } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(body.errors).toBeUndefined();
    return body.data.project.hogFunctionTemplates;
  };

  it('lists destination templates by default, never deprecated ones, in one call', async () => {
    const c = await list('first: 10');
    expect(c.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([
      'template-slack',
      'template-webhook',
    ]);
    expect(c.totalCount).toBe(2);
    for (const e of c.edges) expect(e.node).toMatchObject({ type: 'destination', status: 'stable' });
    expect(h.upstreamCalls().map((c) => [c.path, c.query])).toEqual([[TEMPLATES, 'limit=10&offset=0']]);
  });

  it('filters by types and pages forward with cursors', async () => {
    const first = await list('first: 1, types: ["transformation", "site_app"]');
    expect(first.totalCount).toBe(2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await list(
      `first: 1, types: ["transformation", "site_app"], after: "${first.pageInfo.endCursor}"`,
    );
    expect(second.pageInfo.hasNextPage).toBe(false);
    const types = [...first.edges, ...second.edges]
      .map((e: { node: { type: string } }) => e.node.type)
      .sort();
    expect(types).toEqual(['site_app', 'transformation']);
    expect(h.upstreamCalls().map((c) => new URLSearchParams(c.query).get('types'))).toEqual([
      'transformation,site_app',
      'transformation,site_app',
    ]);
  });

  it('searches id, name and description in any case', async () => {
    const c = await list('first: 5, search: "SLACK"');
    expect(c.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['template-slack']);
    expect(c.totalCount).toBe(1);
  });

  it('reads one template by id, a deprecated one too; an unknown id is null; a bad one costs no call', async () => {
    const { body } = await h.gql(
      `{ project(projectId: "1") { slack: hogFunctionTemplate(id: "template-slack") { ${FIELDS} } legacy: hogFunctionTemplate(id: "plugin-webhook-destination") { status codeLanguage } none: hogFunctionTemplate(id: "template-nope") { id } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.project.slack).toMatchObject({
      id: 'template-slack',
      type: 'destination',
      codeLanguage: 'hog',
      code: expect.any(String),
      inputsSchema: [
        expect.objectContaining({
          key: 'slack_workspace',
          type: 'string',
          secret: true,
          required: true,
        }),
        expect.objectContaining({ key: 'channel', type: 'string', required: true }),
      ],
    });
    expect(body.data.project.legacy).toEqual({ status: 'deprecated', codeLanguage: 'javascript' });
    expect(body.data.project.none).toBeNull();
    h.upstream.clearRequests();
    const bad = await h.gql(
      '{ project(projectId: "1") { hogFunctionTemplate(id: "../hog_functions") { id } } }',
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].message).toContain('hogFunctionTemplates');
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('answers a function’s template as the same type, with its inputs schema', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { hogFunction(uuid: "018f0a5e-0007-7000-8000-000000000002") { template { id type inputsSchema codeLanguage } } } }',
    );
    const template = body.data.project.hogFunction.template;
    expect(template).toMatchObject({ id: 'template-slack', type: 'destination', codeLanguage: 'hog' });
    expect(template.inputsSchema.map((i: { key: string }) => i.key)).toEqual(['slack_workspace', 'channel']);
  });

  it('creates a function from a template with the inputs its schema asks for', async () => {
    const read = await h.gql(
      '{ project(projectId: "1") { hogFunctionTemplate(id: "template-webhook") { id inputsSchema } } }',
    );
    const template = read.body.data.project.hogFunctionTemplate;
    const inputs = Object.fromEntries(
      template.inputsSchema
        .filter((i: { required: boolean }) => i.required)
        .map((i: { key: string }) => [i.key, { value: 'https://example.com/hook' }]),
    );
    const { body } = await h.gql(
      'mutation($inputs: JSON) { createHogFunction(input: {projectId: "1", templateId: "template-webhook", inputs: $inputs}) { hogFunction { name template { id } inputs } } }',
      { inputs },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.createHogFunction.hogFunction).toMatchObject({
      name: 'HTTP Webhook',
      template: { id: 'template-webhook' },
      inputs: { url: expect.objectContaining({ value: 'https://example.com/hook' }) },
    });
  });

  it('says how to list templates, and what a missing input takes', async () => {
    const unknown = await h.gql(
      'mutation { createHogFunction(input: {projectId: "1", templateId: "template-nope"}) { hogFunction { id } } }',
    );
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'template_id' });
    expect(unknown.body.errors[0].message).toMatch(
      /No template found for id 'template-nope'.*hogFunctionTemplates/,
    );
    const missing = await h.gql(
      'mutation { createHogFunction(input: {projectId: "1", templateId: "template-slack", inputs: {slack_workspace: {value: "xoxb-token"}}}) { hogFunction { id } } }',
    );
    expect(missing.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'inputs__channel',
    });
    expect(missing.body.errors[0].message).toBe(
      'This field is required. Input `channel` (Channel) takes a string, from template template-slack’s inputsSchema: send inputs: { channel: { value: … } }.',
    );
    const neither = await h.gql(
      'mutation { createHogFunction(input: {projectId: "1"}) { hogFunction { id } } }',
    );
    expect(neither.body.errors[0].message).toMatch(/Give `templateId`.*or `hog`/);
  });

  it('asks for hog_function:read, which the docs list per field', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { hogFunctionTemplates(first: 1) { totalCount } } }',
      undefined,
      'phx_plugin_rw',
    );
    expect(body.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'hog_function:read',
    });
  });
});
