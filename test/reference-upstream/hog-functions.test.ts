// The 2026 dialect's hog functions (../shared/upstream-notes.md, "Hog functions"): list, retrieve,
// create, update with secret inputs kept, delete as PATCH {"deleted": true}, logs, metrics, test
// invocations, rearrange, and the activity their writes leave.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../../src/reference-upstream/server.ts';
import { pathOf, rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const TYPES = [
  'destination',
  'site_destination',
  'internal_destination',
  'source_webhook',
  'site_app',
  'transformation',
  'transformation_log',
  'legacy_destination',
];

describe('hog functions, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const byName = async (name: string) =>
    (await rest(upstream, 'GET', `${FUNCTIONS}?search=${encodeURIComponent(name)}`)).body.results[0];

  it('lists a function of every type, execution order first, with the list fields only', async () => {
    const { status, body } = await rest(upstream, 'GET', FUNCTIONS);
    expect(status).toBe(200);
    expect(new Set(body.results.map((f: { type: string }) => f.type))).toEqual(new Set(TYPES));
    expect(body.results.slice(0, 2).map((f: { name: string }) => f.name)).toEqual(['GeoIP', 'Drop bots']);
    expect(Object.keys(body.results[0]).sort()).toEqual(
      [
        'id',
        'type',
        'name',
        'description',
        'created_at',
        'created_by',
        'updated_at',
        'enabled',
        'hog',
        'filters',
        'icon_url',
        'template',
        'status',
        'execution_order',
      ].sort(),
    );
    const full = await rest(upstream, 'GET', `${FUNCTIONS}?full=true`);
    expect(Object.keys(full.body.results[0])).toEqual(
      expect.arrayContaining(['inputs', 'inputs_schema', 'version']),
    );
  });

  it('filters by type, enabled and search, and refuses a search over 200 characters', async () => {
    const legacy = await rest(
      upstream,
      'GET',
      `${FUNCTIONS}?type=legacy_destination,site_destination&enabled=true`,
    );
    expect(legacy.body.results.map((f: { name: string }) => f.name).sort()).toEqual([
      'Banner',
      'S3 Export (migrated)',
      'Webhook Destination (migrated)',
    ]);
    expect(legacy.body.count).toBe(3);
    const long = await rest(upstream, 'GET', `${FUNCTIONS}?search=${'x'.repeat(201)}`);
    expect([long.status, long.body.attr]).toEqual([400, 'search']);
  });

  it('pages by limit and offset', async () => {
    const { body } = await rest(upstream, 'GET', `${FUNCTIONS}?limit=5`);
    expect(body.results).toHaveLength(5);
    expect(pathOf(body.next)).toBe(`${FUNCTIONS}?limit=5&offset=5`);
  });

  it('answers a secret input as {"secret": true} and keeps it when an update sends that or leaves it out', async () => {
    const slack = await byName('Slack');
    const one = await rest(upstream, 'GET', `${FUNCTIONS}${slack.id}/`);
    expect(one.body.inputs.slack_workspace).toEqual({ secret: true });
    expect(one.text).not.toContain('secret-1-slack_workspace');
    const updated = await rest(upstream, 'PATCH', `${FUNCTIONS}${slack.id}/`, {
      json: { inputs: { slack_workspace: { secret: true }, channel: { value: '#ops' } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.inputs).toEqual({
      slack_workspace: { secret: true },
      channel: { value: '#ops', order: 1 },
    });
    expect(updated.body.version).toBe(2);
    expect(upstream.store.hogFunctions.get(slack.id)!.inputs.slack_workspace!.value).toBe(
      'secret-1-slack_workspace',
    );
    const renamed = await rest(upstream, 'PATCH', `${FUNCTIONS}${slack.id}/`, {
      json: { name: 'Slack #ops' },
    });
    expect(renamed.body.version).toBe(2);
  });

  it('creates from a template or from code, and says what is wrong otherwise', async () => {
    const fromTemplate = await rest(upstream, 'POST', FUNCTIONS, {
      json: { template_id: 'template-webhook', inputs: { url: { value: 'https://example.com/hook' } } },
    });
    expect(fromTemplate.status).toBe(201);
    expect([fromTemplate.body.type, fromTemplate.body.name, fromTemplate.body.template.id]).toEqual([
      'destination',
      'HTTP Webhook',
      'template-webhook',
    ]);
    const fromCode = await rest(upstream, 'POST', FUNCTIONS, {
      json: { type: 'transformation', hog: 'return event', name: 'Mine' },
    });
    expect([fromCode.status, fromCode.body.type, fromCode.body.template]).toEqual([
      201,
      'transformation',
      null,
    ]);
    const unknown = await rest(upstream, 'POST', FUNCTIONS, { json: { template_id: 'nope' } });
    expect([unknown.status, unknown.body.attr, unknown.body.detail]).toEqual([
      400,
      'template_id',
      "No template found for id 'nope'",
    ]);
    const noHog = await rest(upstream, 'POST', FUNCTIONS, { json: { name: 'x' } });
    expect([noHog.status, noHog.body.attr]).toEqual([400, 'hog']);
    const missingInput = await rest(upstream, 'POST', FUNCTIONS, {
      json: { template_id: 'template-webhook' },
    });
    expect([missingInput.status, missingInput.body.attr]).toEqual([400, 'inputs__url']);
    const legacy = await rest(upstream, 'POST', FUNCTIONS, {
      json: { type: 'legacy_destination', hog: 'x' },
    });
    expect([legacy.status, legacy.body.attr]).toEqual([400, 'type']);
  });

  it('refuses a type change, refuses DELETE, and deletes by PATCH {"deleted": true}', async () => {
    const webhook = await byName('Webhook to ops');
    const retype = await rest(upstream, 'PATCH', `${FUNCTIONS}${webhook.id}/`, {
      json: { type: 'site_app' },
    });
    expect([retype.status, retype.body.attr]).toEqual([400, 'type']);
    const del = await rest(upstream, 'DELETE', `${FUNCTIONS}${webhook.id}/`);
    expect([del.status, del.body.detail]).toEqual([
      403,
      'This action does not support personal API key access',
    ]);
    const patched = await rest(upstream, 'PATCH', `${FUNCTIONS}${webhook.id}/`, { json: { deleted: true } });
    expect(patched.status).toBe(200);
    expect((await rest(upstream, 'GET', `${FUNCTIONS}${webhook.id}/`)).status).toBe(404);
    expect((await rest(upstream, 'GET', `${FUNCTIONS}not-a-uuid/`)).status).toBe(404);
  });

  it('logs creation and changes as HogFunction activity, with execution_order shown as priority', async () => {
    const geoip = await byName('GeoIP');
    const drop = await byName('Drop bots');
    const answer = await rest(upstream, 'PATCH', `${FUNCTIONS}rearrange/`, {
      json: { orders: { [geoip.id]: 2, [drop.id]: 1 } },
    });
    expect(
      answer.body.map((f: { name: string; execution_order: number }) => [f.name, f.execution_order]),
    ).toEqual([
      ['Drop bots', 1],
      ['GeoIP', 2],
    ]);
    const log = await rest(
      upstream,
      'GET',
      `/api/projects/1/activity_log/?scope=HogFunction&item_id=${geoip.id}`,
    );
    const [latest, created] = log.body.results;
    expect([latest.activity, latest.detail.changes[0].field, latest.detail.type]).toEqual([
      'updated',
      'priority',
      'transformation',
    ]);
    expect(created.activity).toBe('created');
  });

  it('serves logs newest first, filtered and limited, metrics and their totals', async () => {
    const fn = await byName('Webhook to ops');
    const logs = await rest(upstream, 'GET', `${FUNCTIONS}${fn.id}/logs/?limit=5`);
    expect(logs.body.count).toBe(12);
    expect(logs.body.results).toHaveLength(5);
    const times = logs.body.results.map((l: { timestamp: string }) => Date.parse(l.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const more = await rest(upstream, 'GET', pathOf(logs.body.next));
    expect(more.body.results[0].timestamp < logs.body.results[4].timestamp).toBe(true);
    const errors = await rest(upstream, 'GET', `${FUNCTIONS}${fn.id}/logs/?level=ERROR`);
    expect(new Set(errors.body.results.map((l: { level: string }) => l.level))).toEqual(new Set(['ERROR']));
    expect((await rest(upstream, 'GET', `${FUNCTIONS}${fn.id}/logs/?limit=501`)).status).toBe(400);
    const metrics = await rest(upstream, 'GET', `${FUNCTIONS}${fn.id}/metrics/?after=-7d&interval=day`);
    expect(metrics.body.labels).toHaveLength(8);
    expect(metrics.body.series.map((s: { name: string }) => s.name)).toEqual([
      'succeeded',
      'failed',
      'filtered',
    ]);
    const totals = await rest(upstream, 'GET', `${FUNCTIONS}${fn.id}/metrics/totals/`);
    expect(Object.keys(totals.body.totals)).toEqual(['succeeded', 'failed', 'filtered']);
  });

  it('runs a test invocation, also of a function not saved yet, and answers its validation errors raw', async () => {
    const fn = await byName('Webhook to ops');
    const run = await rest(upstream, 'POST', `${FUNCTIONS}${fn.id}/invocations/`, {
      json: { globals: { event: { event: '$pageview' } }, mock_async_functions: true },
    });
    expect([run.status, run.body.status, run.body.errors]).toEqual([200, 'success', []]);
    const unsaved = await rest(upstream, 'POST', `${FUNCTIONS}new/invocations/`, {
      json: { configuration: { hog: 'return event' }, globals: { event: { event: 'x' } } },
    });
    expect(unsaved.body.status).toBe('success');
    const invalid = await rest(upstream, 'POST', `${FUNCTIONS}${fn.id}/invocations/`, { json: {} });
    expect([invalid.status, invalid.body]).toEqual([400, { globals: ['This field is required.'] }]);
  });

  it('asks for hog_function scopes, and is not served by the older dialects', async () => {
    const read = await rest(upstream, 'GET', FUNCTIONS, { key: 'phx_plugin_rw' });
    expect([read.status, read.body.detail]).toEqual([
      403,
      "API key missing required scope 'hog_function:read'",
    ]);
    const older = await startReferenceUpstream({ dialect: 'posthog' });
    try {
      const answer = await rest(older, 'GET', FUNCTIONS);
      expect([answer.status, answer.body.detail]).toEqual([404, 'Endpoint not found.']);
    } finally {
      await older.close();
    }
  });
});
