import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const NAME_AND_CONFIGS = '{ project(projectId: "1") { name destinationConfigs(first: 2) { totalCount } } }';

describe('upstream answers become coded errors', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog',
      env: { UPSTREAM_HEADERS_TIMEOUT_MS: '300', UPSTREAM_RETRIES: '1' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('UNAUTHENTICATED without a key, once for the request, with no upstream call; introspection needs no key', async () => {
    const { body } = await h.gql(NAME_AND_CONFIGS, {}, null);
    expect(body.data.project).toEqual({ name: null, destinationConfigs: null });
    expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'UNAUTHENTICATED',
    ]);
    expect(h.upstreamCalls()).toHaveLength(0);
    const introspection = await h.gql('{ __schema { queryType { name } } }', {}, null);
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('UNAUTHENTICATED for a key the upstream rejects, with its status and code', async () => {
    const { body } = await h.gql(NAME_AND_CONFIGS, {}, 'phx_wrong');
    expect(body.errors[0]).toMatchObject({
      message: 'Personal API key found in request Authorization header is invalid.',
      extensions: { code: 'UNAUTHENTICATED', upstream: { status: 401, code: 'authentication_failed' } },
    });
  });

  it('FORBIDDEN with the required scope, and the rest of the answer still arrives', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinationConfigs(first: 1) { totalCount } activityLog(first: 1) { edges { cursor } } } }',
      {},
      'phx_plugin_rw',
    );
    expect(body.data.project.destinationConfigs.totalCount).toBe(150);
    expect(body.data.project.activityLog).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      path: ['project', 'activityLog'],
      message: "API key missing required scope 'activity_log:read'",
      extensions: {
        code: 'FORBIDDEN',
        requiredScope: 'activity_log:read',
        upstream: { status: 403, code: 'permission_denied' },
      },
    });
  });

  it('FORBIDDEN with PostHog’s message for custom actions and scoped keys', async () => {
    const { body } = await h.gql('{ project(projectId: "1") { importantChanges { lastRead } } }');
    expect(body.errors[0]).toMatchObject({
      message: 'This action does not support Personal API Key access',
      extensions: { code: 'FORBIDDEN' },
    });
    expect(body.errors[0].extensions.requiredScope).toBeUndefined();
  });

  it('NOT_FOUND for an unknown project', async () => {
    const { body } = await h.gql('{ project(projectId: "999") { name } }');
    expect(body.data.project.name).toBeNull();
    expect(body.errors[0]).toMatchObject({
      message: 'Project not found.',
      extensions: { code: 'NOT_FOUND', upstream: { status: 404 } },
    });
  });

  it('RATE_LIMITED with retryAfter when the wait does not fit the deadline', async () => {
    h.upstream.faults.add({
      path: 'pipeline_destination_configs',
      action: {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '120' },
        body: {
          type: 'throttled_error',
          code: 'throttled',
          detail: 'Request was throttled. Expected available in 120 seconds.',
          attr: null,
        },
      },
    });
    const { body } = await h.gql(NAME_AND_CONFIGS);
    expect(body.data.project.name).toBe('Hedgebox (production)');
    expect(body.errors[0].extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: 120,
      upstream: { status: 429 },
    });
  });

  it('UPSTREAM_ERROR for a 5xx', async () => {
    h.upstream.faults.add({ path: 'pipeline_destination_configs', action: { kind: 'status', status: 500 } });
    const { body } = await h.gql(NAME_AND_CONFIGS);
    expect(body.errors[0].extensions).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: { status: 500 } });
  });

  it('UPSTREAM_TIMEOUT when headers are slow', async () => {
    h.upstream.faults.add({ path: 'pipeline_destination_configs', action: { kind: 'delay', ms: 1_500 } });
    const { body } = await h.gql(NAME_AND_CONFIGS);
    expect(body.data.project.name).toBe('Hedgebox (production)');
    expect(body.errors[0].extensions.code).toBe('UPSTREAM_TIMEOUT');
  });

  it('UPSTREAM_UNAVAILABLE for a reset connection and for a malformed body', async () => {
    h.upstream.faults.add({ path: 'pipeline_destination_configs', action: { kind: 'reset' } });
    h.upstream.faults.add({ path: '/api/projects/1/', action: { kind: 'malformed' } });
    const { body } = await h.gql(NAME_AND_CONFIGS);
    const codes = body.errors.map((e: { extensions: { code: string } }) => e.extensions.code);
    expect(codes).toEqual(['UPSTREAM_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE']);
  });

  it('UPSTREAM_UNAVAILABLE for an activity page cut short or not a page, beside partial data, not retried', async () => {
    const NAME_AND_LOG = (first: number) =>
      `{ project(projectId: "1") { name activityLog(first: ${first}) { edges { node { id activity } } } } }`;
    const LOG_PATH = '/api/projects/1/activity_log/';
    const codes = (body: { errors?: { extensions: { code: string } }[] }) =>
      body.errors?.map((e) => e.extensions.code);
    const withFault = async (action: object, first = 3) => {
      h.reset();
      h.upstream.faults.add({ path: LOG_PATH, action: action as never });
      const { body } = await h.gql(NAME_AND_LOG(first));
      return { body, logCalls: h.upstreamCalls({ path: LOG_PATH }).length };
    };

    for (const action of [
      { kind: 'malformed' },
      { kind: 'status', status: 200, body: { next: null, previous: null } },
      { kind: 'status', status: 200, body: { results: 'none' } },
    ]) {
      const { body, logCalls } = await withFault(action);
      expect(body.data.project).toEqual({ name: 'Hedgebox (production)', activityLog: null });
      expect(codes(body)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(logCalls).toBe(1);
    }

    // Entries are checked when read: a bad second entry fails the connection that reads it,
    // not one that stops before it.
    const good = {
      id: '018f0a5e-0003-7000-8000-0000000000aa',
      activity: 'updated',
      scope: 'Insight',
      created_at: '2025-03-07T23:43:00Z',
    };
    const page = {
      kind: 'status',
      status: 200,
      body: { next: null, previous: null, results: [good, { id: 5 }] },
    };
    const one = await withFault(page, 1);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.project.activityLog.edges.map((e: { node: object }) => e.node)).toEqual([
      { id: expect.any(String), activity: 'updated' },
    ]);
    const two = await withFault(page, 2);
    expect(two.body.data.project.activityLog).toBeNull();
    expect(codes(two.body)).toEqual(['UPSTREAM_UNAVAILABLE']);
  });

  it('puts no key, upstream URL or upstream body in any error', async () => {
    h.upstream.faults.add({
      path: 'pipeline_destination_configs',
      action: { kind: 'status', status: 502, body: { secret: 'phx_full' } },
    });
    const answers = await Promise.all([
      h.gql(NAME_AND_CONFIGS, {}, 'phx_full'),
      h.gql(NAME_AND_CONFIGS, {}, 'phx_wrong'),
      h.gql('{ project(projectId: "@current") { destinationConfig(databaseId: 0) { id } } }'),
    ]);
    const text = JSON.stringify(answers.map((a) => a.body));
    expect(text).toContain('errors');
    for (const secret of ['phx_full', 'phx_wrong', 'Bearer', h.upstream.url, '127.0.0.1'])
      expect(text).not.toContain(secret);
  });
});

describe('upstream error text is capped', () => {
  it('a 2 MB detail, code or attr reaches the caller and the log as at most 500 characters', async () => {
    const h = await startHarness();
    try {
      const big = 'd'.repeat(2 * 1024 * 1024);
      for (const status of [400, 403, 404, 500]) {
        h.upstream.faults.add({
          path: '/api/projects/1/',
          action: { kind: 'status', status, body: { detail: big, code: big, attr: big } },
          times: 1,
        });
        const { body } = await h.gql('{ project(projectId: "1") { name } }');
        expect(body.errors[0].message).toHaveLength(500);
        expect(JSON.stringify(body).length).toBeLessThan(2_000);
      }
      expect(h.logs.join('\n').length).toBeLessThan(20_000);
    } finally {
      await h.close();
    }
  });
});
