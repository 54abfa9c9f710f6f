import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const CUSTOM_ACTIONS: [string, string][] = [
  ['GET', '/api/projects/1/pipeline_destination_configs/1/frontend/'],
  ['POST', '/api/projects/1/pipeline_destination_configs/2/job/'],
  ['PATCH', '/api/projects/1/pipeline_destination_configs/rearrange/'],
  ['GET', '/api/projects/1/activity_log/important_changes/'],
  ['POST', '/api/projects/1/activity_log/bookmark_activity_notification/'],
];

describe.each(DIALECTS)('authentication and scopes, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());

  it('answers 401 not_authenticated without a key, with WWW-Authenticate: Bearer', async () => {
    const { status, headers, body } = await rest(upstream, 'GET', '/api/projects/1/activity_log/', {
      key: null,
    });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe('Bearer');
    expect(body).toEqual({
      type: 'authentication_error',
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    });
  });

  it('answers 401 authentication_failed for an unknown key', async () => {
    const { status, body } = await rest(upstream, 'GET', '/api/projects/1/activity_log/', {
      key: 'phx_nope',
    });
    expect(status).toBe(401);
    expect(body).toMatchObject({
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
    });
  });

  it.each([
    ['phx_read', 'GET', '/api/projects/1/pipeline_destination_configs/', 200],
    ['phx_read', 'POST', '/api/projects/1/pipeline_destination_configs/', 403],
    ['phx_plugin_rw', 'GET', '/api/projects/1/pipeline_destination_configs/', 200],
    ['phx_plugin_rw', 'GET', '/api/projects/1/activity_log/', 403],
    ['phx_read', 'GET', '/api/projects/1/activity_log/', 200],
    ['phx_full', 'DELETE', '/api/projects/1/pipeline_destination_configs/8/', 204],
    ['phx_legacy', 'GET', '/api/projects/1/activity_log/', 200],
    ['phx_read', 'GET', '/api/projects/', 403],
  ])('%s may %s %s: %i', async (key, method, path, expected) => {
    const { status, body } = await rest(upstream, method, path, {
      key,
      json: method === 'POST' ? {} : undefined,
    });
    expect(status).toBe(expected === 403 || method !== 'POST' ? expected : 400);
    if (expected === 403) {
      expect(body.code).toBe('permission_denied');
      expect(body.detail).toMatch(
        /^API key missing required scope '(plugin:write|activity_log:read|project:read)'$/,
      );
    }
  });

  it('resolves @current to the key owner’s current project and hides other organizations', async () => {
    const mine = await rest(upstream, 'GET', '/api/projects/@current/', { key: 'phx_other' });
    expect(mine.body.id).toBe(3);
    const theirs = await rest(upstream, 'GET', '/api/projects/1/pipeline_destination_configs/', {
      key: 'phx_other',
    });
    expect(theirs.status).toBe(403);
    const listing = await rest(upstream, 'GET', '/api/projects/', { key: 'phx_other' });
    expect(listing.body.results.map((p: { id: number }) => p.id)).toEqual([3]);
    const full = await rest(upstream, 'GET', '/api/projects/');
    expect(full.body).toMatchObject({ count: 2, next: null, previous: null });
  });

  it('answers 404 Project not found for an unknown project, and Not found. for a non-numeric id', async () => {
    const unknown = await rest(upstream, 'GET', '/api/projects/999/activity_log/');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Project not found.');
    for (const id of ['abc', '@me', '1x']) {
      const { status, body } = await rest(upstream, 'GET', `/api/projects/${id}/activity_log/`);
      expect(status).toBe(404);
      expect(body).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('answers 404 Endpoint not found for a path no route matches, before authenticating', async () => {
    for (const path of ['/api/nothing/', '/api/projects/1/pipeline_destination_configs/1/nope/', '/x']) {
      const { status, body } = await rest(upstream, 'GET', path, { key: null });
      expect(status).toBe(404);
      expect(body).toEqual({
        type: 'invalid_request',
        code: 'not_found',
        detail: 'Endpoint not found.',
        attr: null,
      });
    }
  });

  it('applies the custom-action rule of its dialect', async () => {
    for (const [method, path] of CUSTOM_ACTIONS) {
      const scoped = await rest(upstream, method, path, {
        key: 'phx_full',
        json: method === 'GET' ? undefined : {},
      });
      if (dialect === 'posthog') {
        expect(scoped.status).toBe(403);
        expect(scoped.body).toEqual({
          type: 'authentication_error',
          code: 'permission_denied',
          detail: 'This action does not support Personal API Key access',
          attr: null,
        });
      } else {
        expect(scoped.status).not.toBe(403);
      }
      const legacy = await rest(upstream, method, path, {
        key: 'phx_legacy',
        json: method === 'GET' ? undefined : {},
      });
      expect(legacy.status).not.toBe(403);
    }
  });
});
