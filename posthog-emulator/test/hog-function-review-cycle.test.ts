// A hog function's review cycle in the 2026 dialect (hog_function.py@0019077): a draft staged as an
// agent's edit would stage it (the control route), the publish preview and its confirm token,
// restore of a revision into the draft, discard, enabling refused while a draft is staged, and
// base_updated_at's 409; each step's activity entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const STALE = {
  type: 'server_error',
  code: 'stale_update',
  detail:
    'This function changed since you previewed the publish, either the draft or the live config. Preview again to see where things stand now.',
  attr: null,
};

describe('hog function review cycle, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  const idOf = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!.id;
  const stage = async (id: string, fields: Record<string, unknown>) => {
    const response = await fetch(`${upstream.url}/__control/hog-function-draft`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, fields }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field.
    const body: any = await response.json();
    return { status: response.status, body };
  };
  const lastActivity = () =>
    upstream.store.activity.at(-1) as { activity: string; detail: { changes: unknown } };
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('previews a publish with a token, and publishes an enabled function only with a token still matching', async () => {
    const id = idOf('Webhook to ops');
    const staged = await stage(id, { hog: 'return null' });
    expect([staged.status, staged.body.draft.hog, typeof staged.body.draft_updated_at]).toEqual([
      200,
      'return null',
      'string',
    ]);
    expect(Object.keys(staged.body.draft)).toEqual([
      'hog',
      'inputs_schema',
      'inputs',
      'filters',
      'mappings',
      'masking',
    ]);
    expect(lastActivity().activity).toBe('draft_updated');
    expect(lastActivity().detail.changes).toEqual([
      { type: 'HogFunction', action: 'created', field: 'draft', before: null, after: 'masked' },
    ]);
    const listed = await rest(upstream, 'GET', FUNCTIONS);
    const row = listed.body.results.find((f: { id: string }) => f.id === id);
    expect([row.draft_updated_at, row.draft]).toEqual([staged.body.draft_updated_at, undefined]);

    const preview = await rest(upstream, 'POST', `${FUNCTIONS}${id}/publish/`, { json: {} });
    expect(preview.status).toBe(200);
    expect({ ...preview.body, confirm_token: typeof preview.body.confirm_token }).toEqual({
      published: false,
      draft_updated_at: staged.body.draft_updated_at,
      confirm_token: 'string',
      changed_fields: ['hog'],
      function: null,
    });
    const confirm = (token?: unknown) =>
      rest(upstream, 'POST', `${FUNCTIONS}${id}/publish/`, {
        json: token === undefined ? { confirm: true } : { confirm: true, confirm_token: token },
      });
    const without = await confirm();
    expect([without.status, without.body.attr, without.body.detail]).toEqual([
      400,
      'confirm_token',
      'Required when confirming a publish. Call publish without confirm first to see what would change and get a token.',
    ]);
    const forged = await confirm(`${preview.body.confirm_token}x`);
    expect([forged.status, forged.body.detail]).toEqual([
      400,
      'Invalid. Call publish without confirm first to see what would change and get a token.',
    ]);
    await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { name: 'Webhook to ops' } });
    const stale = await confirm(preview.body.confirm_token);
    expect([stale.status, stale.body]).toEqual([409, STALE]);

    const versionBefore = upstream.store.hogFunctions.get(id)!.version;
    const again = await rest(upstream, 'POST', `${FUNCTIONS}${id}/publish/`, { json: { confirm: false } });
    const published = await confirm(again.body.confirm_token);
    expect(published.status).toBe(200);
    expect([published.body.published, published.body.confirm_token, published.body.changed_fields]).toEqual([
      true,
      null,
      null,
    ]);
    expect([
      published.body.function.hog,
      published.body.function.draft,
      published.body.function.version,
    ]).toEqual(['return null', null, versionBefore + 1]);
    expect(lastActivity().activity).toBe('published');
    expect(lastActivity().detail.changes).toContainEqual({
      type: 'HogFunction',
      action: 'deleted',
      field: 'draft',
      before: 'masked',
      after: null,
    });
    const revisions = await rest(upstream, 'GET', `${FUNCTIONS}${id}/revisions/`);
    expect(revisions.body.results[0].version).toBe(versionBefore + 1);
    expect((await confirm(again.body.confirm_token)).body.detail).toBe(
      'This function has no staged draft to publish.',
    );
  });

  it('restores a revision into the draft, over a staged one only with overwrite, and discards it once', async () => {
    const id = idOf('Webhook to ops');
    const restore = (version: number, json: unknown = {}) =>
      rest(upstream, 'POST', `${FUNCTIONS}${id}/revisions/${version}/restore/`, { json });
    const [oldest] = upstream.store.hogFunctions.get(id)!.revisions!;
    const restored = await restore(oldest!.version);
    expect([restored.status, restored.body.draft.hog, restored.body.hog]).toEqual([
      200,
      oldest!.content.hog,
      'return null',
    ]);
    expect(lastActivity().activity).toBe('revision_restored');
    const refused = await restore(oldest!.version);
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([
      409,
      'draft_exists',
      'This function has an open draft. Publish or discard it first, or pass overwrite=true to replace it with the restored revision.',
    ]);
    expect((await restore(oldest!.version, { overwrite: true })).status).toBe(200);
    expect((await restore(oldest!.version, { overwrite: 'maybe' })).body.attr).toBe('overwrite');
    const missing = await restore(999, { overwrite: true });
    expect([missing.status, missing.body.detail]).toEqual([404, 'No such revision for this function.']);

    const activity = upstream.store.activity.length;
    const discarded = await rest(upstream, 'POST', `${FUNCTIONS}${id}/discard_draft/`);
    expect([discarded.status, discarded.body.draft, discarded.body.draft_updated_at]).toEqual([
      200,
      null,
      null,
    ]);
    expect(lastActivity().activity).toBe('draft_discarded');
    expect((await rest(upstream, 'POST', `${FUNCTIONS}${id}/discard_draft/`)).status).toBe(200);
    expect(upstream.store.activity.length).toBe(activity + 1);
  });

  it('masks a staged secret, refuses to enable while a draft is staged, and publishes a disabled function without a token', async () => {
    const id = idOf('Slack #alerts');
    await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { enabled: false } });
    const staged = await stage(id, {
      inputs: { slack_workspace: { value: 'xoxb-staged-secret' }, channel: { value: '#ops' } },
    });
    expect(staged.body.draft.inputs.slack_workspace).toEqual({ secret: true });
    const read = await rest(upstream, 'GET', `${FUNCTIONS}${id}/`);
    expect(read.text).not.toContain('xoxb-staged-secret');
    const preview = await rest(upstream, 'POST', `${FUNCTIONS}${id}/publish/`, { json: {} });
    expect(preview.body.changed_fields).toEqual(['inputs']);
    const enable = await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { enabled: true } });
    expect([enable.status, enable.body.attr, enable.body.detail]).toEqual([
      400,
      'enabled',
      "This function has config staged for review. Publish or discard it before enabling, so you don't turn on config nobody looked at.",
    ]);
    const published = await rest(upstream, 'POST', `${FUNCTIONS}${id}/publish/`, { json: { confirm: true } });
    expect([published.status, published.body.function.inputs.slack_workspace]).toEqual([
      200,
      { secret: true },
    ]);
    expect(upstream.store.hogFunctions.get(id)!.inputs.slack_workspace!.value).toBe('xoxb-staged-secret');
    expect((await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { enabled: true } })).status).toBe(
      200,
    );
  });

  it('answers 409 stale_update to a PATCH whose base_updated_at is older than the stored updated_at', async () => {
    const id = idOf('Banner');
    const current = (await rest(upstream, 'GET', `${FUNCTIONS}${id}/`)).body.updated_at;
    const patch = (base: unknown) =>
      rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { description: 'x', base_updated_at: base } });
    expect((await patch('2020-01-01T00:00:00Z')).body).toEqual(STALE);
    expect((await patch(current)).status).toBe(200);
    expect((await patch(current)).status).toBe(409);
    const bad = await patch('yesterday');
    expect([bad.status, bad.body.attr]).toEqual([400, 'base_updated_at']);
  });
});
