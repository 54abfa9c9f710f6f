// The test controls for what PostHog's workers decide: the hog watcher's state of a function
// (answered as `status` while it is enabled; {state: 0} while not: hog_function.py@026f251's
// `status`), and a finished batch export run, first of the export's `latest_runs`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const S3 = '018f0a5e-0020-7000-8000-000000000001';

describe('health controls, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const enabledFunction = () =>
    [...upstream.store.hogFunctions.values()].find((fn) => fn.enabled && !fn.deleted && fn.projectId === 1)!;

  it('degrades a function: its list row and retrieve answer the state', async () => {
    const fn = enabledFunction();
    const set = await rest(upstream, 'POST', '/__control/hog-function-status', {
      key: null,
      json: { id: fn.id, state: 2 },
    });
    expect(set.status).toBe(200);
    const one = await rest(upstream, 'GET', `/api/projects/1/hog_functions/${fn.id}/`);
    expect(one.body.status).toEqual({ state: 2, tokens: 0 });
    const list = await rest(upstream, 'GET', '/api/projects/1/hog_functions/?limit=500');
    expect(list.body.results.find((r: { id: string }) => r.id === fn.id).status.state).toBe(2);
  });

  it('answers {state: 0} for a function that is not enabled, whatever the watcher says', async () => {
    const fn = enabledFunction();
    await rest(upstream, 'POST', '/__control/hog-function-status', { key: null, json: { id: fn.id, state: 2 } });
    await rest(upstream, 'PATCH', `/api/projects/1/hog_functions/${fn.id}/`, { json: { enabled: false } });
    const one = await rest(upstream, 'GET', `/api/projects/1/hog_functions/${fn.id}/`);
    expect(one.body.status).toEqual({ state: 0, tokens: 0 });
  });

  it('refuses a state the watcher does not set, and an unknown function', async () => {
    const fn = enabledFunction();
    const bad = await rest(upstream, 'POST', '/__control/hog-function-status', {
      key: null,
      json: { id: fn.id, state: 7 },
    });
    expect(bad.status).toBe(400);
    const missing = await rest(upstream, 'POST', '/__control/hog-function-status', {
      key: null,
      json: { id: '00000000-0000-0000-0000-000000000000', state: 2 },
    });
    expect(missing.status).toBe(404);
  });

  it('finishes a failed run: first of latest_runs, with its error', async () => {
    const made = await rest(upstream, 'POST', '/__control/batch-export-run', {
      key: null,
      json: { batchExportId: S3, status: 'Failed', latestError: 'AccessDenied' },
    });
    expect(made.status).toBe(201);
    const exp = await rest(upstream, 'GET', `/api/projects/1/batch_exports/${S3}/`);
    expect(exp.body.latest_runs[0]).toMatchObject({
      id: made.body.id,
      status: 'Failed',
      latest_error: 'AccessDenied',
    });
    expect(exp.body.latest_runs[0].finished_at).not.toBeNull();
    const bad = await rest(upstream, 'POST', '/__control/batch-export-run', {
      key: null,
      json: { batchExportId: S3, status: 'Broken' },
    });
    expect(bad.status).toBe(400);
  });
});
