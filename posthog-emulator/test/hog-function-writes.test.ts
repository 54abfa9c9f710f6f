// Writes to hog functions in the 2026 dialect, as products/cdp/backend/api/hog_function.py@0019077
// validates and logs them: secrets kept and never shown (in the answer or the activity log), the
// serializer's errors in the exceptions_hog shape with nested attrs, the type rules and caps,
// execution order, soft delete, rearrange; and the leakSecrets test double.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const LOG = '/api/projects/1/activity_log/';

describe('hog function writes, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const idOf = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!.id;
  const patch = (id: string, json: unknown) => rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json });
  const create = (json: unknown) => rest(upstream, 'POST', FUNCTIONS, { json });
  const latest = async (id: string) =>
    (await rest(upstream, 'GET', `${LOG}?scope=HogFunction&item_id=${id}`)).body.results[0];

  it('keeps a secret sent as {"secret": true} or left out; the activity shows its change as "masked"', async () => {
    const slack = idOf('Slack #alerts');
    const kept = await patch(slack, {
      inputs: { slack_workspace: { secret: true }, channel: { value: '#ops' } },
    });
    expect(kept.body.inputs).toEqual({
      channel: { value: '#ops', bytecode: ['_H', 1, 32, '#ops'], order: 1 },
      slack_workspace: { secret: true },
    });
    expect(kept.body.version).toBe(2);
    expect(upstream.store.hogFunctions.get(slack)!.inputs.slack_workspace!.value).toBe(
      'secret-1-slack_workspace',
    );
    const rotated = await patch(slack, {
      inputs: { slack_workspace: { value: 'xoxb-new' }, channel: { value: '#ops' } },
    });
    expect(rotated.text).not.toContain('xoxb-new');
    // Only a secret changed: the config snapshot (secrets split off) is the same, so no new version.
    expect(rotated.body.version).toBe(2);
    const entry = await latest(slack);
    expect(JSON.stringify(entry)).not.toContain('xoxb-new');
    expect(JSON.stringify(entry)).not.toContain('secret-1');
    expect(entry.detail.changes).toEqual([
      {
        type: 'HogFunction',
        action: 'changed',
        field: 'encrypted_inputs',
        before: 'masked',
        after: 'masked',
      },
    ]);
    const renamed = await patch(slack, { name: 'Slack #ops' });
    expect(renamed.body.version).toBe(2);
    expect((await latest(slack)).detail).toEqual({
      name: 'Slack #ops',
      short_id: null,
      type: 'destination',
      changes: [
        {
          type: 'HogFunction',
          action: 'changed',
          field: 'name',
          before: 'Slack #alerts',
          after: 'Slack #ops',
        },
      ],
      trigger: null,
      context: null,
    });
  });

  it('asks to re-enter a secret that was never saved, on its nested attr', async () => {
    const created = await create({
      template_id: 'template-slack',
      inputs: { slack_workspace: { secret: true }, channel: { value: '#a' } },
    });
    expect([created.status, created.body]).toEqual([
      400,
      {
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'No value is saved for this secret input. Enter the value again.',
        attr: 'inputs__slack_workspace',
      },
    ]);
  });

  it("answers a mapping's inputs as stored: PostHog masks only the top-level secret inputs", async () => {
    const one = await rest(upstream, 'GET', `${FUNCTIONS}${idOf('Webhook to ops')}/`);
    expect(one.body.mappings[0].inputs.api_key.value).toBe('mapping-secret-0');
    // A mapping's {"secret": true} recovers from the function's own encrypted_inputs (the
    // serializer context they share), which has no `api_key`.
    const mapping = { ...one.body.mappings[0], inputs: { api_key: { secret: true } } };
    const resent = await patch(idOf('Webhook to ops'), { mappings: [mapping] });
    expect([resent.status, resent.body.attr, resent.body.detail]).toEqual([
      400,
      'mappings__0__inputs__api_key',
      'No value is saved for this secret input. Enter the value again.',
    ]);
  });

  it('says what is wrong with a create, as the serializer does', async () => {
    const cases: [unknown, number, string, string, string][] = [
      [{ template_id: 'nope' }, 400, 'template_id', 'invalid_input', "No template found for id 'nope'"],
      [{ name: 'x' }, 400, 'hog', 'invalid_input', 'Required.'],
      [{ template_id: 'template-webhook' }, 400, 'inputs__url', 'invalid_input', 'This field is required.'],
      [
        { template_id: 'template-webhook', inputs: { url: { value: 3 } } },
        400,
        'inputs__url',
        'invalid_input',
        'Value must be a string.',
      ],
      [
        { hog: 'x', inputs_schema: [{ key: 'a', type: 'not-valid' }] },
        400,
        'inputs_schema__0__type',
        'invalid_choice',
        '"not-valid" is not a valid choice.',
      ],
      [
        { type: 'warehouse_source_webhook', hog: 'x' },
        400,
        'type',
        'invalid_input',
        'Cannot create or modify warehouse source webhook functions via this API.',
      ],
      [
        { type: 'transformation', hog: 'x', mappings: [] },
        400,
        'mappings',
        'invalid_input',
        'Mappings are only allowed for destinations.',
      ],
      [
        { hog: 'x'.repeat(100 * 1024 + 1) },
        400,
        'hog',
        'invalid_input',
        'HOG code exceeds maximum size of 100KB. Please simplify your code or contact support if you need this limit increased.',
      ],
    ];
    for (const [json, status, attr, code, detail] of cases) {
      const answer = await create(json);
      expect([answer.status, answer.body.attr, answer.body.code, answer.body.detail]).toEqual([
        status,
        attr,
        code,
        detail,
      ]);
    }
  });

  it('puts a new transformation last, and caps enabled transformations at 20', async () => {
    const unnamed = await create({ type: 'destination', hog: 'return event' });
    expect([unnamed.status, unnamed.body.name, unnamed.body.description]).toEqual([201, null, '']);
    const made = await create({ type: 'transformation', hog: 'return event', name: 'Mine' });
    expect([made.status, made.body.execution_order, made.body.enabled]).toEqual([201, 3, false]);
    // order_by("-execution_order").first() meets Postgres' NULLS FIRST: once one transformation
    // has no order, the highest is taken as 0.
    await patch(idOf('Drop bots'), { execution_order: null });
    const next = await create({ type: 'transformation', hog: 'return event', name: 'After a null' });
    expect([next.status, next.body.execution_order]).toEqual([201, 1]);
    for (let n = 0; n < 18; n++) await create({ type: 'transformation', hog: 'return event', enabled: true });
    const over = await create({ type: 'transformation', hog: 'return event', enabled: true });
    expect([over.status, over.body.attr, over.body.detail]).toEqual([
      400,
      'type',
      'Maximum of 20 enabled transformation functions allowed per team. Please contact support if you need this limit increased, or disable some existing ones.',
    ]);
  });

  it('refuses a type change, takes PUT, refuses DELETE, deletes and restores by PATCH', async () => {
    const webhook = idOf('Webhook to ops');
    const retype = await patch(webhook, { type: 'site_app' });
    expect([retype.status, retype.body.attr, retype.body.detail]).toEqual([
      400,
      'type',
      'Cannot modify the type of an existing function',
    ]);
    const put = await rest(upstream, 'PUT', `${FUNCTIONS}${webhook}/`, { json: { name: 'Webhook (put)' } });
    expect([put.status, put.body.name]).toEqual([200, 'Webhook (put)']);
    const del = await rest(upstream, 'DELETE', `${FUNCTIONS}${webhook}/`);
    expect([del.status, del.body.detail]).toEqual([
      403,
      'This action does not support personal API key access',
    ]);
    expect((await patch(webhook, { deleted: true })).status).toBe(200);
    expect((await rest(upstream, 'GET', `${FUNCTIONS}${webhook}/`)).status).toBe(404);
    const deleted = await latest(webhook);
    expect([deleted.activity, deleted.detail.changes[0].field]).toEqual(['updated', 'deleted']);
    expect((await patch(webhook, { deleted: false })).status).toBe(200);
    expect((await rest(upstream, 'GET', `${FUNCTIONS}${webhook}/`)).status).toBe(200);
  });

  it('rearranges transformations, says what is wrong, and logs priority as strings', async () => {
    const [geoip, drop] = [idOf('GeoIP'), idOf('Drop bots')];
    const none = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, { json: { orders: {} } });
    expect([none.status, none.body.attr, none.body.detail]).toEqual([400, null, 'No orders provided']);
    const list = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, { json: { orders: [geoip] } });
    expect(list.status).toBe(500);
    const webhook = idOf('Webhook to ops');
    const wrong = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, {
      json: { orders: { [webhook]: 1 } },
    });
    expect(wrong.body.detail).toBe(`HogFunction with id ${webhook} does not exist`);
    await create({ type: 'transformation_log', hog: 'return record', name: 'Logs' });
    const logs = idOf('Logs');
    const mixed = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, {
      json: { orders: { [geoip]: 1, [logs]: 2 } },
    });
    expect(mixed.body.detail).toBe('Cannot rearrange functions of different types in one request');
    const done = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, {
      json: { orders: { [geoip]: 2, [drop]: 1 } },
    });
    expect(
      done.body.map((f: { name: string; execution_order: number }) => [f.name, f.execution_order]),
    ).toEqual([
      ['Drop bots', 1],
      ['GeoIP', 2],
    ]);
    expect((await latest(geoip)).detail.changes).toEqual([
      { type: 'HogFunction', action: 'changed', field: 'priority', before: '1', after: '2' },
    ]);
  });
});

describe('hog function secrets from a broken upstream (leakSecrets)', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026', leakSecrets: true });
  });
  afterAll(() => upstream.close());

  it('answers secret values in plain text, in the function and in its activity', async () => {
    const slack = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Slack #alerts')!.id;
    const one = await rest(upstream, 'GET', `${FUNCTIONS}${slack}/`);
    expect(one.body.inputs.slack_workspace.value).toBe('secret-1-slack_workspace');
    await rest(upstream, 'PATCH', `${FUNCTIONS}${slack}/`, {
      json: { inputs: { slack_workspace: { value: 'xoxb-leaked' }, channel: { value: '#x' } } },
    });
    const log = await rest(upstream, 'GET', `${LOG}?scope=HogFunction&item_id=${slack}`);
    const fields = log.body.results[0].detail.changes.map((c: { field: string }) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['inputs', 'encrypted_inputs']));
    expect(JSON.stringify(log.body.results[0])).toContain('xoxb-leaked');
  });
});
