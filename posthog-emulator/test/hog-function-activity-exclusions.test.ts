// What a hog function's `updated` entry leaves out in the 2026 dialect: HogFunction's
// field_exclusions (posthog/models/activity_logging/activity_log.py@7c88b78): bytecode,
// transpiled, icon_url, version, draft_updated_at, revisions. A config change that bumps `version`
// (and recompiles `transpiled`) names only the fields the caller changed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const LOG = '/api/projects/1/activity_log/';
const EXCLUDED = ['bytecode', 'transpiled', 'icon_url', 'version', 'draft_updated_at', 'revisions'];

describe('hog function activity field exclusions, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const idOf = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!.id;
  const changedFields = async (id: string) => {
    const entry = (await rest(upstream, 'GET', `${LOG}?scope=HogFunction&item_id=${id}`)).body.results[0];
    expect(entry.activity).toBe('updated');
    return entry.detail.changes.map((c: { field: string }) => c.field);
  };

  it('logs a hog change that bumps the version as the change of hog alone', async () => {
    const id = idOf('Webhook to ops');
    const patched = await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { hog: 'return null' } });
    expect([patched.status, patched.body.version]).toEqual([200, 2]);
    expect(await changedFields(id)).toEqual(['hog']);
  });

  it('leaves out a site function’s recompiled transpiled code', async () => {
    const id = idOf('Banner');
    const hog = 'export function onLoad() { console.log("changed") }';
    const patched = await rest(upstream, 'PATCH', `${FUNCTIONS}${id}/`, { json: { hog } });
    expect(patched.status).toBe(200);
    const fields = await changedFields(id);
    expect(fields).toContain('hog');
    for (const excluded of EXCLUDED) expect(fields).not.toContain(excluded);
  });
});
