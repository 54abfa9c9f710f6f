import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, SECRET_MASK } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const CONFIGS = '/api/projects/1/pipeline_destination_configs/';

describe.each(DIALECTS)('destination config writes, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const expectedCount = dialect === 'posthog' ? 150 : 155;

  it('requires plugin, then order, on create', async () => {
    const none = await rest(upstream, 'POST', CONFIGS, { json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      type: 'validation_error',
      code: 'required',
      detail: 'This field is required.',
      attr: 'plugin',
    });
    const noOrder = await rest(upstream, 'POST', CONFIGS, { json: { plugin: 1 } });
    expect(noOrder.body).toMatchObject({ code: 'required', attr: 'order' });
    const unknown = await rest(upstream, 'POST', CONFIGS, { json: { plugin: 999, order: 1 } });
    expect(unknown.body).toEqual({
      type: 'validation_error',
      code: 'does_not_exist',
      detail: 'Invalid pk "999" - object does not exist.',
      attr: 'plugin',
    });
    const badOrder = await rest(upstream, 'POST', CONFIGS, { json: { plugin: 1, order: 'x' } });
    expect(badOrder.body).toMatchObject({
      code: 'invalid_input',
      detail: 'A valid integer is required.',
      attr: 'order',
    });
    const longName = await rest(upstream, 'POST', CONFIGS, {
      json: { plugin: 1, order: 1, name: 'n'.repeat(401) },
    });
    expect(longName.body).toMatchObject({ code: 'max_length', attr: 'name' });
  });

  it('creates a config and records it in the activity log', async () => {
    const { status, body } = await rest(upstream, 'POST', CONFIGS, {
      json: { plugin: 1, order: 4, name: 'New hook', enabled: true, filters: { events: [] } },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      plugin: 1,
      order: 4,
      name: 'New hook',
      enabled: true,
      deleted: false,
      team_id: 1,
    });
    if (dialect === 'posthog') {
      expect(body.plugin_info).toMatchObject({ id: 1 });
      expect(body.delivery_rate_24h).toBeNull();
    }
    const log = await rest(upstream, 'GET', `/api/projects/1/activity_log/?item_id=${body.id}`);
    expect(log.body.results[0]).toMatchObject({
      activity: 'created',
      scope: 'PluginConfig',
      item_id: String(body.id),
    });
  });

  it('writes config only through a form field holding JSON, masking secrets', async () => {
    const config = { s3BucketName: 'b', awsAccessKey: 'AK', awsSecretAccessKey: 'top-secret' };
    const viaJson = await rest(upstream, 'POST', CONFIGS, { json: { plugin: 2, order: 1, config } });
    const viaMultipart = await rest(upstream, 'POST', CONFIGS, {
      multipart: { plugin: '2', order: '1', enabled: 'true', config: JSON.stringify(config) },
    });
    const viaUrlencoded = await rest(upstream, 'POST', CONFIGS, {
      form: { plugin: '2', order: '2', filters: '{"a":1}', config: JSON.stringify(config) },
    });
    expect(viaMultipart.status).toBe(201);
    expect(viaUrlencoded.status).toBe(201);
    expect(viaMultipart.body.enabled).toBe(true);
    expect(viaUrlencoded.body.filters).toEqual({ a: 1 });
    if (dialect === 'posthog') {
      expect(viaJson.body.config).toEqual({});
      for (const answer of [viaMultipart, viaUrlencoded]) {
        expect(answer.body.config).toEqual({ ...config, awsSecretAccessKey: SECRET_MASK });
      }
      expect(upstream.store.configs.get(viaMultipart.body.id)!.config.awsSecretAccessKey).toBe('top-secret');
    } else {
      // The interface document makes `config` read-only.
      expect(JSON.parse(viaMultipart.body.config)).toEqual({});
    }
  });

  it('replaces config on update, keeping a secret that was left out', async () => {
    const path = `${CONFIGS}1/`;
    const { status, body } = await rest(upstream, 'PATCH', path, {
      form: { config: JSON.stringify({ s3BucketName: 'renamed', awsAccessKey: 'AK2' }) },
    });
    expect(status).toBe(200);
    if (dialect === 'posthog') {
      expect(body.config).toEqual({
        s3BucketName: 'renamed',
        awsAccessKey: 'AK2',
        awsSecretAccessKey: SECRET_MASK,
      });
      expect(upstream.store.configs.get(1)!.config).toEqual({
        s3BucketName: 'renamed',
        awsAccessKey: 'AK2',
        awsSecretAccessKey: 's3-secret-1',
      });
    } else {
      expect(JSON.parse(body.config)).toMatchObject({ s3BucketName: 'events-1' });
    }
  });

  it('records enable, disable and field changes as activity', async () => {
    await rest(upstream, 'PATCH', `${CONFIGS}1/`, { json: { enabled: false } });
    await rest(upstream, 'PATCH', `${CONFIGS}1/`, { json: { name: 'Renamed', order: 9 } });
    const { body } = await rest(
      upstream,
      'GET',
      '/api/projects/1/activity_log/?item_id=1&scope=PluginConfig',
    );
    const [renamed, disabled] = body.results;
    expect(disabled).toMatchObject({ activity: 'disabled' });
    expect(renamed.activity).toBe('updated');
    expect(renamed.detail.changes.map((c: { field: string }) => c.field).sort()).toEqual(['name', 'order']);
  });

  it('deletes as its dialect does', async () => {
    const gone = await rest(upstream, 'DELETE', `${CONFIGS}3/`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    const after = await rest(upstream, 'GET', `${CONFIGS}3/`);
    const unknown = await rest(upstream, 'DELETE', `${CONFIGS}9999/`);
    if (dialect === 'posthog') {
      expect(after.status).toBe(200);
      expect(after.body.enabled).toBe(false);
      expect(unknown.status).toBe(500);
      expect(unknown.body).toEqual({
        type: 'server_error',
        code: 'error',
        detail: 'A server error occurred.',
        attr: null,
      });
    } else {
      expect(after.status).toBe(404);
      expect(unknown.status).toBe(404);
    }
  });

  it('serves the frontend as its dialect does', async () => {
    const key = dialect === 'posthog' ? 'phx_legacy' : 'phx_read';
    const { status, headers, body, text } = await rest(upstream, 'GET', `${CONFIGS}4/frontend`, { key });
    expect(status).toBe(200);
    if (dialect === 'posthog') {
      expect(headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
      expect(text).toContain('getFrontendApp');
    } else {
      expect(headers.get('content-type')).toBe('application/json');
      expect(body.id).toBe(4);
    }
  });

  it('runs a job as its dialect does', async () => {
    const key = 'phx_legacy';
    // Config 2 uses plugin 3, the one with a public job.
    const path = `${CONFIGS}2/job/`;
    if (dialect === 'posthog') {
      const done = await rest(upstream, 'POST', path, {
        key,
        json: { job: { type: 'Export historical events', payload: { dateFrom: '2025-01-01' } } },
      });
      expect(done.status).toBe(200);
      expect(done.text).toBe('');
      const missing = await rest(upstream, 'POST', path, { key, json: { job: {} } });
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toBe('The job type must be specified!');
      const unknown = await rest(upstream, 'POST', path, { key, json: { job: { type: 'Nope' } } });
      expect(unknown.status).toBe(400);
    } else {
      const done = await rest(upstream, 'POST', path, { key, json: { enabled: true } });
      expect(done.status).toBe(200);
      expect(done.body.id).toBe(2);
    }
    const log = await rest(upstream, 'GET', '/api/projects/1/activity_log/?item_id=2');
    expect(log.body.results[0].activity).toBe('job_triggered');
  });

  it('rearranges as its dialect does', async () => {
    const { status, body } = await rest(upstream, 'PATCH', `${CONFIGS}rearrange/`, {
      key: 'phx_legacy',
      json: { orders: { '1': 59, '2': 58 } },
    });
    expect(status).toBe(200);
    expect(upstream.store.configs.get(1)!.order).toBe(59);
    if (dialect === 'posthog') {
      expect(Array.isArray(body)).toBe(true);
      expect(
        body.every((c: { enabled: boolean; plugin_info: unknown }) => c.enabled && c.plugin_info === null),
      ).toBe(true);
    } else {
      expect(body).toMatchObject({ id: 1, order: 59 });
    }
  });

  it('answers 405 for a method the endpoint lacks, and accepts paths without a trailing slash', async () => {
    const put = await rest(upstream, 'PUT', CONFIGS, { json: {} });
    expect(put.status).toBe(405);
    expect(put.body).toEqual({
      type: 'invalid_request',
      code: 'method_not_allowed',
      detail: 'Method "PUT" not allowed.',
      attr: null,
    });
    const bare = await rest(upstream, 'GET', '/api/projects/1/pipeline_destination_configs');
    expect(bare.body.count).toBe(expectedCount);
  });

  it('uses --public-base for links, as a server behind a proxy', async () => {
    const proxied = await startReferenceUpstream({ dialect, publicBase: 'https://proxy.example' });
    try {
      const { body } = await rest(proxied, 'GET', CONFIGS);
      expect(body.next).toBe(`https://proxy.example${CONFIGS}?limit=100&offset=100`);
    } finally {
      await proxied.close();
    }
  });
});
