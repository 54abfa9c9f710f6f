// The 2026 dialect's template list as PublicHogFunctionTemplateViewSet serves it
// (products/cdp/backend/api/hog_function_template.py, code-index id 69064927251): the whole
// filtered catalog is ordered (enabled, live functions of any project made from it, most first;
// then the lower-cased name; then template_id) before it is paged, so pages never repeat or drop a
// template; and flag-gated templates (posthog/cdp/flag_gated_templates.py@3cb6764:
// template-posthog-create-task behind workflow-ai-task-action) are left out of the list of a team
// without the flag, and always out of the anonymous catalog. A retrieve is not gated.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const GATED = 'template-posthog-create-task';
const templates = (project: number) => `/api/projects/${project}/hog_function_templates/`;
const ids = (body: { results: { id: string }[] }) => body.results.map((t) => t.id);

describe('hog function template order and flag-gated templates, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('orders the whole list by use, lower-cased name and id before paging', async () => {
    const query = '?types=destination,transformation,site_app';
    const whole = await rest(upstream, 'GET', `${templates(1)}${query}`);
    // Webhook: two enabled functions; GeoIP and Slack: one each (GeoIP first by name); the
    // Notification bar's function is disabled.
    const expected = ['template-webhook', 'template-geoip', 'template-slack', 'template-site-banner'];
    expect(ids(whole.body)).toEqual(expected);
    const paged: string[] = [];
    for (let offset = 0; offset < expected.length; offset++) {
      const page = await rest(upstream, 'GET', `${templates(1)}${query}&limit=1&offset=${offset}`);
      expect(page.body.count).toBe(expected.length);
      paged.push(...ids(page.body));
    }
    expect(paged).toEqual(expected);
    const slack = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Slack #alerts')!;
    await rest(upstream, 'PATCH', `/api/projects/1/hog_functions/${slack.id}/`, { json: { enabled: false } });
    const after = await rest(upstream, 'GET', `${templates(1)}${query}&limit=2&offset=2`);
    expect(ids(after.body)).toEqual(['template-site-banner', 'template-slack']);
  });

  it('lists a flag-gated template only to a team with the flag, never anonymously', async () => {
    const without = await rest(upstream, 'GET', templates(1));
    expect(ids(without.body)).not.toContain(GATED);
    const filtered = await rest(upstream, 'GET', `${templates(1)}?template_id=${GATED}`);
    expect(filtered.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    // Project 2 has workflow-ai-task-action; the template is a hidden destination one.
    const withFlag = await rest(upstream, 'GET', `${templates(2)}?template_id=${GATED}`);
    expect(withFlag.body.results.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      [GATED, 'hidden'],
    ]);
    const open = await rest(upstream, 'GET', `/api/public_hog_function_templates/?template_id=${GATED}`, {
      key: null,
    });
    expect(open.body.results).toEqual([]);
    const retrieved = await rest(upstream, 'GET', `${templates(1)}${GATED}/`);
    expect([retrieved.status, retrieved.body.name]).toEqual([200, 'Create AI task']);
  });
});
