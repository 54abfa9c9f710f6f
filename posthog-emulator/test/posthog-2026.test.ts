// The reference upstream's third dialect, PostHog as of late 2026 (docs/upstream.md):
// the legacy routes as they answer now, the removed notification routes, the activity log's new
// paging and its 402, and the option of an upstream where the legacy routes are gone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const CONFIGS = '/api/projects/1/pipeline_destination_configs/';
const LOG = '/api/projects/1/activity_log/';
const REFUSED = 'This action does not support personal API key access';

describe('PostHog 2026: what changed on the legacy routes', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('answers configs without delivery_rate_24h and filters', async () => {
    const list = await rest(upstream, 'GET', CONFIGS);
    expect(list.status).toBe(200);
    const first = list.body.results[0];
    expect(Object.keys(first)).not.toContain('delivery_rate_24h');
    expect(Object.keys(first)).not.toContain('filters');
    const one = await rest(upstream, 'GET', `${CONFIGS}${first.id}/`);
    expect(Object.keys(one.body)).not.toContain('delivery_rate_24h');
  });

  it('refuses config creation, jobs, the frontend and rearrange as PostHog does now', async () => {
    const create = await rest(upstream, 'POST', CONFIGS, { json: { plugin: 1, order: 1 } });
    expect([create.status, create.body.detail]).toEqual([
      400,
      'Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information.',
    ]);
    const job = await rest(upstream, 'POST', `${CONFIGS}1/job/`, { json: { job: { type: 'x' } } });
    expect([job.status, job.body.detail]).toEqual([404, 'Endpoint not found.']);
    for (const key of ['phx_full', 'phx_legacy']) {
      // PluginConfigViewSet's activity and migrate actions are in no scope list either.
      const activity = await rest(upstream, 'GET', `${CONFIGS}1/activity/`, { key });
      expect([activity.status, activity.body.detail]).toEqual([403, REFUSED]);
      const migrate = await rest(upstream, 'POST', `${CONFIGS}1/migrate/`, { key });
      expect([migrate.status, migrate.body.detail]).toEqual([403, REFUSED]);
      const frontend = await rest(upstream, 'GET', `${CONFIGS}1/frontend/`, { key });
      expect([frontend.status, frontend.body.detail]).toEqual([403, REFUSED]);
      const rearrange = await rest(upstream, 'PATCH', `${CONFIGS}rearrange/`, { key, json: { orders: {} } });
      expect([rearrange.status, rearrange.body.detail]).toEqual([403, REFUSED]);
    }
  });

  it('falls back to the plugin name and description, and says whether a plugin migrates (plugin.py@1841bc1)', async () => {
    const five = await rest(upstream, 'GET', `${CONFIGS}5/`);
    expect(five.body.description).toBe(upstream.store.plugins.get(five.body.plugin)!.description);
    expect(five.body.plugin_info.hog_function_migration_available).toBe(true);
    const list = await rest(upstream, 'GET', CONFIGS);
    expect(list.body.results.every((c: { plugin_info: unknown }) => c.plugin_info === null)).toBe(true);
  });

  it('makes a hog function from a form-encoded create, answering the unsaved config (id null)', async () => {
    const before = upstream.store.hogFunctions.size;
    const activity = upstream.store.activity.length;
    const made = await rest(upstream, 'POST', CONFIGS, {
      form: { plugin: '1', order: '7', config: JSON.stringify({ url: 'https://example.com/h' }) },
    });
    expect([made.status, made.body.id, made.body.created_at, made.body.updated_at, made.body.name]).toEqual([
      201,
      null,
      null,
      null,
      'Webhook Destination',
    ]);
    expect(made.body.config).toEqual({ url: 'https://example.com/h' });
    expect(upstream.store.hogFunctions.size).toBe(before + 1);
    const fn = [...upstream.store.hogFunctions.values()].at(-1)!;
    expect([fn.type, fn.templateId, fn.name, fn.executionOrder, fn.enabled]).toEqual([
      'destination',
      'plugin-webhook-destination',
      'Webhook Destination',
      7,
      true,
    ]);
    // serializer.create() is called directly: no activity entry.
    expect(upstream.store.activity.length).toBe(activity);
  });

  it('logs config_updated (secret keys as the mask, field null) and enabled/disabled, nothing for a rename', async () => {
    const log = async () =>
      (await rest(upstream, 'GET', '/api/projects/1/activity_log/?scope=PluginConfig&item_id=1')).body
        .results[0];
    const latest = (await log()).id;
    await rest(upstream, 'PATCH', `${CONFIGS}1/`, { json: { name: 'Renamed' } });
    expect((await log()).id).toBe(latest);
    await rest(upstream, 'PATCH', `${CONFIGS}1/`, {
      form: { config: JSON.stringify({ s3BucketName: 'new-bucket', awsSecretAccessKey: 'rotated' }) },
    });
    const updated = await log();
    expect([updated.activity, updated.detail.name]).toEqual(['config_updated', 'S3 Export']);
    expect(updated.detail.changes).toEqual(
      expect.arrayContaining([
        { type: 'Plugin', action: 'changed', field: 's3BucketName', before: 'events-1', after: 'new-bucket' },
        {
          type: 'PluginConfig',
          action: 'changed',
          field: null,
          before: '**************** POSTHOG SECRET FIELD ****************',
          after: '**************** POSTHOG SECRET FIELD ****************',
        },
      ]),
    );
    expect(JSON.stringify(updated)).not.toContain('rotated');
    await rest(upstream, 'PATCH', `${CONFIGS}1/`, { json: { enabled: false } });
    const disabled = await log();
    expect([disabled.activity, disabled.detail.changes]).toEqual(['disabled', []]);
  });

  it('only disables on DELETE, and logs nothing', async () => {
    const activity = upstream.store.activity.length;
    const answer = await rest(upstream, 'DELETE', `${CONFIGS}2/`);
    expect([answer.status, upstream.store.configs.get(2)!.enabled]).toEqual([204, false]);
    expect(upstream.store.activity.length).toBe(activity);
  });

  it('has turned the unscoped legacy key into a `*` key', () => {
    expect(upstream.store.keys.get('phx_legacy')!.scopes).toEqual(['*']);
  });

  it('answers 404 "Endpoint not found." on the notification routes, any method, with or without a key', async () => {
    for (const path of [`${LOG}important_changes/`, `${LOG}bookmark_activity_notification/`]) {
      for (const method of ['GET', 'POST']) {
        for (const key of ['phx_full', null]) {
          const answer = await rest(upstream, method, path, { key });
          expect([path, method, key, answer.status, answer.body.detail]).toEqual([
            path,
            method,
            key,
            404,
            'Endpoint not found.',
          ]);
        }
      }
    }
  });
});

describe('PostHog 2026: the activity log', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('pages with page_size, newest first by default, entries carrying team_id, client and ip_address', async () => {
    const { status, body } = await rest(upstream, 'GET', `${LOG}?page_size=7`);
    expect(status).toBe(200);
    expect(body.results).toHaveLength(7);
    const times = body.results.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Object.keys(body.results[0])).toEqual(expect.arrayContaining(['team_id', 'client', 'ip_address']));
    expect(body.results[0].team_id).toBe(1);
    const capped = await rest(upstream, 'GET', `${LOG}?page_size=5000`);
    expect(capped.body.results).toHaveLength(upstream.store.activity.filter((e) => e.projectId === 1).length);
  });

  it('walks oldest first with ordering=created_at, every entry once, and follow keeps a next cursor at the tail', async () => {
    const total = upstream.store.activity.filter((e) => e.projectId === 1).length;
    const seen: string[] = [];
    let path: string | null = `${LOG}?ordering=created_at&follow=true&page_size=100`;
    let last = '';
    for (let pages = 0; path && pages < 20; pages++) {
      const { body } = await rest(upstream, 'GET', path);
      if (body.results.length === 0) break;
      seen.push(...body.results.map((e: { id: string }) => e.id));
      last = pathOf(body.next);
      path = last;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    // At the tail: no entry, and the same cursor again.
    const tail = await rest(upstream, 'GET', last);
    expect(tail.body.results).toEqual([]);
    expect(pathOf(tail.body.next)).toBe(last);
    // A new entry appears after that cursor.
    await rest(upstream, 'POST', '/api/projects/1/hog_functions/', {
      json: { template_id: 'template-geoip', type: 'transformation' },
    });
    const fresh = await rest(upstream, 'GET', last);
    expect(fresh.body.results.map((e: { scope: string; activity: string }) => [e.scope, e.activity])).toEqual(
      [['HogFunction', 'created']],
    );
  });

  it('keeps every instant distinct, the seeded hog function activity included', () => {
    const instants = upstream.store.activity.map((e) => e.createdAtMicros);
    expect(upstream.store.activity.filter((e) => e.scope === 'HogFunction').length).toBeGreaterThanOrEqual(
      12,
    );
    expect(new Set(instants).size).toBe(instants.length);
  });

  it('numbers pages with page=N and a count', async () => {
    const { body } = await rest(upstream, 'GET', `${LOG}?page=2&page_size=50`);
    expect(body.count).toBe(upstream.store.activity.filter((e) => e.projectId === 1).length);
    expect(body.results).toHaveLength(50);
    expect(pathOf(body.previous)).toBe(`${LOG}?page_size=50`);
    expect(pathOf(body.next)).toBe(`${LOG}?page=3&page_size=50`);
  });

  it('answers 402 to a plan without audit logs, unless narrowed to FeatureFlag or Experiment', async () => {
    const paid = await rest(upstream, 'GET', '/api/projects/3/activity_log/', { key: 'phx_other' });
    expect([paid.status, paid.body]).toEqual([
      402,
      {
        type: 'server_error',
        code: 'payment_required',
        detail: 'Audit logs requires a paid PostHog plan. Please upgrade to access this feature.',
        attr: null,
      },
    ]);
    const flags = await rest(upstream, 'GET', '/api/projects/3/activity_log/?scope=FeatureFlag', {
      key: 'phx_other',
    });
    expect(flags.status).toBe(200);
  });
});

describe('PostHog after PR #97440: no legacy routes', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026', legacyRoutes: false });
  });
  afterAll(() => upstream.close());

  it('answers 404 "Endpoint not found." on every legacy pipeline route and still serves hog functions', async () => {
    for (const [method, path] of [
      ['GET', CONFIGS],
      ['GET', `${CONFIGS}1/`],
      ['GET', `${CONFIGS}1/frontend/`],
      ['PATCH', `${CONFIGS}rearrange/`],
    ] as const) {
      const answer = await rest(upstream, method, path);
      expect([path, answer.status, answer.body.detail]).toEqual([path, 404, 'Endpoint not found.']);
    }
    expect((await rest(upstream, 'GET', '/api/projects/1/hog_functions/')).status).toBe(200);
  });
});
