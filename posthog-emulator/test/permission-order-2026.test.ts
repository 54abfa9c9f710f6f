// The posthog-2026 dialect checks a request as PostHog's permission chain does
// (posthog/api/routing.py@00f00ca, get_permissions: APIScopePermission before
// TeamMemberAccessPermission; posthog/permissions.py@001027c, APIScopePermission: an action in no
// scope list, as a method the view lacks, is "This action does not support personal API key
// access"). DRF runs the permissions before it looks for the method's handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const REFUSED = {
  type: 'authentication_error',
  code: 'permission_denied',
  detail: 'This action does not support personal API key access',
  attr: null,
};

describe('the permission order, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('resolves the project, then asks for the scope, then for membership', async () => {
    // phx_read lacks hog_function:read; its user belongs to no organization of project 3.
    const foreignWithoutScope = await rest(upstream, 'GET', '/api/projects/3/hog_functions/', {
      key: 'phx_read',
    });
    expect(foreignWithoutScope.status).toBe(403);
    expect(foreignWithoutScope.body.detail).toBe("API key missing required scope 'hog_function:read'");
    // APIScopePermission resolves the project (its organization) before it reads the key's scopes.
    const unknown = await rest(upstream, 'GET', '/api/projects/999/hog_functions/', { key: 'phx_read' });
    expect([unknown.status, unknown.body.detail]).toEqual([404, 'Project not found.']);
    // With the scope, membership answers last.
    const foreign = await rest(upstream, 'GET', '/api/projects/1/hog_functions/', { key: 'phx_other' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toBe("You don't have access to the project.");
  });

  it('refuses my_notifications, whose scope object is INTERNAL, to every personal key', async () => {
    // posthog/api/my_notifications.py@31b95ce: MyNotificationsViewSet, scope_object "INTERNAL",
    // list and the bookmark action; permissions.py@001027c gives INTERNAL no required scope.
    const cases: [string, string][] = [
      ['GET', '/api/projects/1/my_notifications/'],
      ['GET', '/api/projects/3/my_notifications'],
      ['POST', '/api/projects/1/my_notifications/bookmark/'],
    ];
    for (const [method, path] of cases) {
      for (const key of ['phx_full', 'phx_read']) {
        const { status, body } = await rest(upstream, method, path, {
          key,
          json: method === 'POST' ? {} : undefined,
        });
        expect({ path, key, status }).toEqual({ path, key, status: 403 });
        expect(body).toEqual(REFUSED);
      }
    }
  });

  it('refuses a method the endpoint lacks to every personal key, before its 405', async () => {
    const cases: [string, string][] = [
      ['PUT', '/api/projects/1/pipeline_destination_configs/'],
      ['DELETE', '/api/projects/1/hog_functions/'],
      ['POST', '/api/projects/1/batch_exports/1/runs/'],
      ['PUT', '/api/projects/999/activity_log/'],
      ['PATCH', '/api/projects/3/hog_functions/'],
    ];
    for (const [method, path] of cases) {
      for (const key of ['phx_full', 'phx_legacy', 'phx_other']) {
        const { status, body } = await rest(upstream, method, path, { key, json: {} });
        expect({ method, path, key, status }).toEqual({ method, path, key, status: 403 });
        expect(body).toEqual(REFUSED);
      }
    }
  });
});
