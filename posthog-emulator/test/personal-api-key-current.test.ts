// GET /api/personal_api_keys/@current/ (posthog/api/personal_api_key.py@43ac4cf371f8a7847f549cf187b98092f05cf779):
// a key reads its own scopes without any scope, in posthog-2026; older dialects do not route it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const CURRENT = '/api/personal_api_keys/@current/';

describe('personal_api_keys/@current, posthog-2026', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
    upstream.store.keys.set('phx_team_one', {
      value: 'phx_team_one',
      userId: 1,
      scopes: ['hog_function:read'],
      currentProjectId: 1,
      scopedTeams: [1],
      scopedOrganizations: [],
    });
  });
  afterAll(() => upstream.close());

  it('answers the key itself, with its scopes, teams and organizations, to a key with no matching scope', async () => {
    const { status, body } = await rest(upstream, 'GET', CURRENT, { key: 'phx_batch_read' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      value: null,
      user_id: 3,
      scopes: ['batch_export:read'],
      scoped_teams: [],
      scoped_organizations: [],
      mask_value: 'phx_...read',
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        'id',
        'label',
        'value',
        'mask_value',
        'created_at',
        'last_used_at',
        'user_id',
        'scopes',
        'scoped_teams',
        'scoped_organizations',
        'last_rolled_at',
      ].sort(),
    );
  });

  it('answers an unscoped legacy key as ["*"], as to_representation does', async () => {
    const { body } = await rest(upstream, 'GET', CURRENT, { key: 'phx_legacy' });
    expect(body.scopes).toEqual(['*']);
  });

  it('answers the teams a key is scoped to, and refuses it any other project', async () => {
    const { body } = await rest(upstream, 'GET', CURRENT, { key: 'phx_team_one' });
    expect(body.scoped_teams).toEqual([1]);
    expect((await rest(upstream, 'GET', '/api/projects/1/hog_functions/', { key: 'phx_team_one' })).status).toBe(
      200,
    );
    const other = await rest(upstream, 'GET', '/api/projects/2/hog_functions/', { key: 'phx_team_one' });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe('API key does not have access to the requested project: ID 2.');
  });

  it('refuses a personal key any other action on itself, and answers 401 without a key', async () => {
    expect((await rest(upstream, 'PATCH', CURRENT, { json: { label: 'x' } })).status).toBe(403);
    expect((await rest(upstream, 'GET', CURRENT, { key: null })).status).toBe(401);
    expect((await rest(upstream, 'GET', CURRENT, { key: 'phx_nope' })).status).toBe(401);
  });
});

describe.each(DIALECTS)('personal_api_keys/@current, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());

  it('is not routed: Django’s 404 "Endpoint not found.", with a key or without', async () => {
    for (const key of ['phx_full', null]) {
      const { status, body } = await rest(upstream, 'GET', CURRENT, { key });
      expect(status).toBe(404);
      expect(body.detail).toBe('Endpoint not found.');
    }
  });
});
