// Who may read hog function templates in the 2026 dialect
// (products/cdp/backend/api/hog_function_template.py@b1d33f0, PublicHogFunctionTemplateViewSet):
// the project-nested mount is [IsAuthenticated, APIScopePermission], with no check that the key's
// user belongs to the project's organization; /api/public_hog_function_templates/ is AllowAny
// and leaves hidden templates out of its list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

describe('PostHog 2026: hog function template access', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it("reads another organization's project's templates (no membership check)", async () => {
    const mine = await rest(upstream, 'GET', '/api/projects/1/hog_function_templates/');
    const theirs = await rest(upstream, 'GET', '/api/projects/1/hog_function_templates/', {
      key: 'phx_other',
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual(mine.body);
    const one = await rest(upstream, 'GET', '/api/projects/1/hog_function_templates/template-slack/', {
      key: 'phx_other',
    });
    expect([one.status, one.body.id]).toEqual([200, 'template-slack']);
    // The scope is still asked for, and an unknown project is still not found.
    const unscoped = await rest(upstream, 'GET', '/api/projects/1/hog_function_templates/', {
      key: 'phx_read',
    });
    expect(unscoped.status).toBe(403);
    const unknown = await rest(upstream, 'GET', '/api/projects/999/hog_function_templates/', {
      key: 'phx_other',
    });
    expect([unknown.status, unknown.body.detail]).toEqual([404, 'Project not found.']);
  });

  it('serves the public catalog without a key, as the project mount lists it', async () => {
    const mine = await rest(
      upstream,
      'GET',
      '/api/projects/1/hog_function_templates/?types=destination,transformation',
    );
    const open = await rest(
      upstream,
      'GET',
      '/api/public_hog_function_templates/?types=destination,transformation',
      {
        key: null,
      },
    );
    expect(open.status).toBe(200);
    expect(open.body.results.map((t: { id: string }) => t.id)).toEqual(
      mine.body.results.map((t: { id: string }) => t.id),
    );
    const one = await rest(upstream, 'GET', '/api/public_hog_function_templates/template-webhook', {
      key: null,
    });
    expect([one.status, one.body.id]).toEqual([200, 'template-webhook']);
    // A key sent is authenticated; a method the viewset lacks is DRF's 405 (AllowAny passes).
    const bad = await rest(upstream, 'GET', '/api/public_hog_function_templates/', { key: 'phx_nope' });
    expect(bad.status).toBe(401);
    const post = await rest(upstream, 'POST', '/api/public_hog_function_templates/', { key: null, json: {} });
    expect(post.status).toBe(405);
  });
});
