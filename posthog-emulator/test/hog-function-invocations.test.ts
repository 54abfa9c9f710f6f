// POST :id/invocations/ in the 2026 dialect, as products/cdp/backend/api/hog_function.py@0019077
// (HogFunctionViewSet.invocations) and the CDP worker (nodejs/src/cdp/cdp-api.ts@00972b5) answer:
// a missing `configuration` in the usual error shape, the serializer's errors raw, the worker's
// refusals as {"status": "error", "errors": [...]}, secrets sent as {"secret": true} resolved
// against the stored function.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';

describe('hog function test invocations, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const idOf = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!.id;
  const invoke = (id: string, json: unknown) =>
    rest(upstream, 'POST', `${FUNCTIONS}${id}/invocations/`, { json });
  const pageview = { event: { event: '$pageview', properties: {} } };

  it('refuses a body without configuration in the usual error shape, and use_draft when nothing is staged', async () => {
    const missing = await invoke(idOf('Webhook to ops'), { globals: pageview });
    expect([missing.status, missing.body]).toEqual([
      400,
      {
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Required unless use_draft is true.',
        attr: 'configuration',
      },
    ]);
    const draft = await invoke(idOf('Webhook to ops'), { use_draft: true, globals: pageview });
    expect([draft.status, draft.body.attr, draft.body.detail]).toEqual([
      400,
      'use_draft',
      'This function has no staged draft to test.',
    ]);
  });

  it('runs the stored configuration when given an empty one, its secret recovered', async () => {
    const run = await invoke(idOf('Slack #alerts'), { configuration: {}, globals: pageview });
    expect([run.status, run.body.status, run.body.errors, run.body.result]).toEqual([
      200,
      'success',
      [],
      null,
    ]);
    const secret = await invoke(idOf('Slack #alerts'), {
      configuration: { inputs: { slack_workspace: { secret: true }, channel: { value: '#x' } } },
      globals: pageview,
    });
    expect([secret.status, secret.body.status]).toEqual([200, 'success']);
  });

  it('answers the serializer errors raw: a secret with nothing stored, a bad input, a bad globals', async () => {
    const fresh = await invoke('new', {
      configuration: {
        template_id: 'template-slack',
        inputs_schema: [{ key: 'token', type: 'string', secret: true, required: true }],
        inputs: { token: { secret: true } },
      },
      globals: 'nope',
    });
    expect([fresh.status, fresh.body]).toEqual([
      400,
      {
        configuration: {
          inputs: { token: 'No value is saved for this secret input. Enter the value again.' },
        },
        globals: ['Expected a dictionary of items but got type "str".'],
      },
    ]);
    const retype = await invoke(idOf('Webhook to ops'), {
      configuration: { type: 'site_app' },
      globals: pageview,
    });
    expect([retype.status, retype.body]).toEqual([
      400,
      { configuration: { type: ['Cannot modify the type of an existing function'] } },
    ]);
    const nulled = await invoke(idOf('Webhook to ops'), { configuration: null });
    expect([nulled.status, nulled.body]).toEqual([400, { configuration: ['This field may not be null.'] }]);
  });

  it('passes on the worker refusals: a missing event, a type it does not run, a bad invocation id', async () => {
    const noEvent = await invoke(idOf('Webhook to ops'), { configuration: {}, globals: {} });
    expect([noEvent.status, noEvent.body]).toEqual([400, { status: 'error', errors: ['Missing event'] }]);
    for (const name of ['Banner', 'Notification bar', 'Stripe webhook', 'S3 Export (migrated)']) {
      const refused = await invoke(idOf(name), { configuration: {}, globals: pageview });
      expect([name, refused.status, refused.body]).toEqual([
        name,
        400,
        { status: 'error', errors: ['Invalid function type'] },
      ]);
    }
    const badId = await invoke(idOf('Webhook to ops'), {
      configuration: {},
      globals: pageview,
      invocation_id: 'x',
    });
    expect([badId.status, badId.body]).toEqual([400, { status: 'error', errors: ['Invalid invocation ID'] }]);
  });

  it('runs a new function (any id that names none), a transformation answering its event, and a clickhouse_event', async () => {
    const unsaved = await invoke('new', { configuration: { hog: 'return event' }, globals: pageview });
    expect([unsaved.status, unsaved.body.status]).toEqual([200, 'success']);
    const unknown = await invoke('0190ffff-0000-7000-8000-00000000abcd', {
      configuration: {},
      globals: pageview,
    });
    expect(unknown.body.status).toBe('success');
    const transform = await invoke(idOf('GeoIP'), { configuration: {}, globals: pageview });
    expect(transform.body.result).toEqual(pageview.event);
    const row = await invoke(idOf('Webhook to ops'), {
      configuration: {},
      clickhouse_event: { uuid: 'u', event: '$identify', distinct_id: 'd', properties: '{}' },
    });
    expect([row.status, row.body.status]).toEqual([200, 'success']);
    // Invocations log nothing in the activity log.
    expect(
      upstream.store.activity.filter((e) => e.activity === 'updated' && e.scope === 'HogFunction'),
    ).toEqual([]);
  });
});
