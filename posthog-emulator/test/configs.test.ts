import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, SECRET_MASK } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const CONFIGS = '/api/projects/1/pipeline_destination_configs/';

describe.each(DIALECTS)('destination configs, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const expectedCount = dialect === 'posthog' ? 150 : 155;

  it('lists the first page with absolute, sorted links', async () => {
    const { status, body } = await rest(upstream, 'GET', CONFIGS);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.count).toBe(expectedCount);
    expect(body.next).toBe(`${upstream.url}${CONFIGS}?limit=100&offset=100`);
    expect(body.previous).toBeNull();
    expect(body.results).toHaveLength(100);
  });

  it('walks every config through next links with no gap or duplicate', async () => {
    const seen: number[] = [];
    let path: string | null = `${CONFIGS}?limit=40`;
    let pages = 0;
    while (path) {
      const { body } = await rest(upstream, 'GET', path);
      seen.push(...body.results.map((c: { id: number }) => c.id));
      path = body.next ? pathOf(body.next) : null;
      pages++;
    }
    expect(pages).toBe(Math.ceil(expectedCount / 40));
    expect(new Set(seen).size).toBe(expectedCount);
    expect(seen).toHaveLength(expectedCount);
  });

  it('orders as its dialect does', async () => {
    const { body } = await rest(upstream, 'GET', `${CONFIGS}?limit=200`);
    const rows = body.results as { id: number; order: number; plugin: number; deleted: boolean }[];
    if (dialect === 'posthog') {
      expect(rows.some((r) => r.deleted)).toBe(false);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1]!, rows[i]!];
        expect(a.order < b.order || (a.order === b.order && a.plugin <= b.plugin)).toBe(true);
      }
    } else {
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((x, y) => x - y));
      expect(rows.filter((r) => r.deleted)).toHaveLength(5);
    }
  });

  it('keeps other query keys, sorted, and drops offset from a previous link that reaches 0', async () => {
    const { body } = await rest(upstream, 'GET', `${CONFIGS}?offset=30&zeta=1&limit=20&alpha=x`);
    expect(pathOf(body.next)).toBe(`${CONFIGS}?alpha=x&limit=20&offset=50&zeta=1`);
    expect(pathOf(body.previous)).toBe(`${CONFIGS}?alpha=x&limit=20&offset=10&zeta=1`);
    const second = await rest(upstream, 'GET', `${CONFIGS}?offset=20&limit=20`);
    expect(pathOf(second.body.previous)).toBe(`${CONFIGS}?limit=20`);
  });

  it('falls back to the default page size for a limit that is not a positive integer', async () => {
    for (const limit of ['0', '-3', 'abc']) {
      const { body } = await rest(upstream, 'GET', `${CONFIGS}?limit=${limit}`);
      expect(body.results).toHaveLength(100);
    }
  });

  it('serves the field types of its dialect on retrieve', async () => {
    // Config 1 uses plugin 2 (S3 Export), whose secret access key is a secret field.
    const { status, body } = await rest(upstream, 'GET', '/api/projects/1/pipeline_destination_configs/1');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([
      'id',
      'plugin',
      'enabled',
      'order',
      'config',
      'error',
      'team_id',
      'plugin_info',
      'delivery_rate_24h',
      'created_at',
      'updated_at',
      'name',
      'description',
      'deleted',
      'filters',
    ]);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    if (dialect === 'posthog') {
      expect(body.config).toMatchObject({ awsSecretAccessKey: SECRET_MASK, s3BucketName: 'events-1' });
      expect(body.plugin_info).toMatchObject({ id: 2, name: 'S3 Export', config_schema: expect.any(Array) });
      expect(typeof body.delivery_rate_24h).toBe('number');
      expect(body.error).toBeNull();
    } else {
      expect(typeof body.config).toBe('string');
      expect(JSON.parse(body.config)).toMatchObject({ s3BucketName: 'events-1' });
      expect(typeof body.plugin_info).toBe('string');
      expect(typeof body.delivery_rate_24h).toBe('string');
      expect(typeof body.error).toBe('string');
    }
  });

  it('leaves plugin_info out of list answers in the posthog dialect only', async () => {
    const { body } = await rest(upstream, 'GET', `${CONFIGS}?limit=5`);
    for (const row of body.results) {
      if (dialect === 'posthog') expect(row.plugin_info).toBeNull();
      else expect(typeof row.plugin_info).toBe('string');
    }
  });

  it('answers 404 for an unknown config, a config of another project and a non-numeric id', async () => {
    for (const path of [
      `${CONFIGS}9999/`,
      '/api/projects/2/pipeline_destination_configs/1/',
      `${CONFIGS}abc/`,
    ]) {
      const { status, body } = await rest(upstream, 'GET', path);
      expect(status).toBe(404);
      expect(body).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });
});
