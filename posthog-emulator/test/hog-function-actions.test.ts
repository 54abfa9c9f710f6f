// The hog function viewset's other actions in the 2026 dialect (hog_function.py@0019077): the
// draft cycle with nothing staged (no function of the reference upstream has a draft),
// masked_secrets, and the actions in neither scope list, which a personal API key cannot call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const REFUSED = 'This action does not support personal API key access';

describe('hog function actions, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  let webhook: string;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
    webhook = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Webhook to ops')!.id;
  });
  afterAll(() => upstream.close());

  it('refuses to publish when nothing is staged, and discards nothing, answering the function', async () => {
    const publish = await rest(upstream, 'POST', `${FUNCTIONS}${webhook}/publish/`, { json: {} });
    expect([publish.status, publish.body]).toEqual([
      400,
      {
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'This function has no staged draft to publish.',
        attr: null,
      },
    ]);
    const badConfirm = await rest(upstream, 'POST', `${FUNCTIONS}${webhook}/publish/`, {
      json: { confirm: 'x' },
    });
    expect([badConfirm.status, badConfirm.body.attr, badConfirm.body.detail]).toEqual([
      400,
      'confirm',
      'Must be a valid boolean.',
    ]);
    const activity = upstream.store.activity.length;
    const discard = await rest(upstream, 'POST', `${FUNCTIONS}${webhook}/discard_draft/`);
    expect([discard.status, discard.body.id, discard.body.draft]).toEqual([200, webhook, null]);
    expect(upstream.store.activity.length).toBe(activity);
    expect(
      (await rest(upstream, 'POST', `${FUNCTIONS}${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}/publish/`))
        .status,
    ).toBe(404);
  });

  it('keeps a revision per config change, the first one also snapshotting the version before it', async () => {
    const slack = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Slack #alerts')!.id;
    const none = await rest(upstream, 'GET', `${FUNCTIONS}${slack}/revisions/`);
    expect([none.status, none.body.count, none.body.results]).toEqual([200, 0, []]);
    await rest(upstream, 'PATCH', `${FUNCTIONS}${slack}/`, { json: { hog: 'return event' } });
    await rest(upstream, 'PATCH', `${FUNCTIONS}${slack}/`, { json: { name: 'No new revision' } });
    const two = await rest(upstream, 'GET', `${FUNCTIONS}${slack}/revisions/`);
    expect(two.body.count).toBe(2);
    expect(two.body.results.map((r: { version: number }) => r.version)).toEqual([2, 1]);
    expect(Object.keys(two.body.results[0])).toEqual(['version', 'created_at', 'created_by']);
    expect([two.body.results[0].created_by.id, two.body.results[1].created_by]).toEqual([1, null]);
    const first = await rest(upstream, 'GET', `${FUNCTIONS}${slack}/revisions/1/`);
    expect(Object.keys(first.body.content)).toEqual([
      'hog',
      'inputs_schema',
      'inputs',
      'filters',
      'mappings',
      'masking',
    ]);
    expect(first.body.content.hog).not.toBe('return event');
    // Revision content never carries secrets.
    expect(Object.keys(first.body.content.inputs)).toEqual(['channel']);
    const missing = await rest(upstream, 'GET', `${FUNCTIONS}${slack}/revisions/9/`);
    expect([missing.status, missing.body.detail]).toEqual([404, 'No such revision for this function.']);
  });

  it('lists no function whose secret holds the mask', async () => {
    const { status, body } = await rest(upstream, 'GET', `${FUNCTIONS}masked_secrets/`);
    expect([status, body]).toEqual([200, []]);
  });

  it('refuses icons, icon and enable_backfills to every personal API key', async () => {
    for (const [method, path] of [
      ['GET', `${FUNCTIONS}icons/?query=slack`],
      ['GET', `${FUNCTIONS}icon/?id=x`],
      ['POST', `${FUNCTIONS}${webhook}/enable_backfills/`],
    ] as const) {
      const answer = await rest(upstream, method, path);
      expect([path, answer.status, answer.body.detail]).toEqual([path, 403, REFUSED]);
    }
  });
});
