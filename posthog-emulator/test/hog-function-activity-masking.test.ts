// How a hog function's activity entry masks its values in the 2026 dialect, as
// posthog/models/activity_logging/activity_log.py@7c88b78 writes them (`mask_change_values`,
// `key_masked_fields`, `field_with_masked_contents`): `inputs` keeps its keys, before each
// "masked", after each "masked" or "changed" (a key whose value differs, or a new one);
// `mappings`, `encrypted_inputs`, `draft_encrypted_inputs` and `draft` read "masked"; null stays null.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const LOG = '/api/projects/1/activity_log/';

describe('hog function activity masking, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const fnNamed = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!;
  const latestChanges = async (id: string) =>
    (await rest(upstream, 'GET', `${LOG}?scope=HogFunction&item_id=${id}`)).body.results[0].detail.changes;
  const changeOf = (changes: { field: string }[], field: string) => changes.find((c) => c.field === field);

  it('key-masks inputs: every key before is "masked", after "changed" where the value differs', async () => {
    const fn = fnNamed('Webhook to ops');
    const secret = new Set(fn.inputsSchema.filter((s) => s.secret).map((s) => s.key));
    const plain = fn.inputsSchema.filter((s) => !secret.has(s.key)).map((s) => s.key);
    expect(plain.length).toBeGreaterThanOrEqual(2);
    const [edited, ...kept] = plain as [string, ...string[]];
    const inputs = Object.fromEntries(
      Object.entries(fn.inputs).map(([k, v]) => [
        k,
        k === edited ? { value: 'edited-value' } : { value: v.value },
      ]),
    );
    const patched = await rest(upstream, 'PATCH', `${FUNCTIONS}${fn.id}/`, { json: { inputs } });
    expect(patched.status).toBe(200);
    const changes = await latestChanges(fn.id);
    expect(JSON.stringify(changes)).not.toContain('edited-value');
    expect(changeOf(changes, 'inputs')).toEqual({
      type: 'HogFunction',
      action: 'changed',
      field: 'inputs',
      before: Object.fromEntries(plain.map((k) => [k, 'masked'])),
      after: Object.fromEntries([[edited, 'changed'], ...kept.map((k) => [k, 'masked'])]),
    });
  });

  it('masks a mappings change as "masked", and a created one keeps its null before', async () => {
    const webhook = fnNamed('Webhook to ops');
    const mappings = [{ name: 'Only pageviews', inputs_schema: [], inputs: {} }];
    expect((await rest(upstream, 'PATCH', `${FUNCTIONS}${webhook.id}/`, { json: { mappings } })).status).toBe(
      200,
    );
    expect(changeOf(await latestChanges(webhook.id), 'mappings')).toEqual({
      type: 'HogFunction',
      action: 'changed',
      field: 'mappings',
      before: 'masked',
      after: 'masked',
    });
    const slack = fnNamed('Slack #alerts');
    expect(slack.mappings).toBeNull();
    expect((await rest(upstream, 'PATCH', `${FUNCTIONS}${slack.id}/`, { json: { mappings } })).status).toBe(
      200,
    );
    expect(changeOf(await latestChanges(slack.id), 'mappings')).toEqual({
      type: 'HogFunction',
      action: 'created',
      field: 'mappings',
      before: null,
      after: 'masked',
    });
  });

  it('writes inputs of a created change as every key "changed", before null', async () => {
    const fn = fnNamed('Drop bots');
    const schema = [{ type: 'string', key: 'label', label: 'Label', required: false, secret: false }];
    const patched = await rest(upstream, 'PATCH', `${FUNCTIONS}${fn.id}/`, {
      json: { inputs_schema: schema, inputs: { label: { value: 'bots' } } },
    });
    expect(patched.status).toBe(200);
    expect(changeOf(await latestChanges(fn.id), 'inputs')).toEqual({
      type: 'HogFunction',
      action: 'created',
      field: 'inputs',
      before: null,
      after: { label: 'changed' },
    });
  });
});
