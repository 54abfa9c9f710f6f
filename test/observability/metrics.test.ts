// GET /metrics after a scripted run: the upstream counts match the reference upstream's own
// request log route by route, operations and errors are counted by name, outcome and code, and
// no label carries a key, an id, a raw path or an invented operation name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTemplate } from '../../src/upstream/posthog/paths.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { parsePrometheus, type Sample, total } from '../support/prometheus.ts';

const TOKEN = 'metrics-token-0123456789';

describe('Prometheus metrics', () => {
  let h: Harness;
  let metricsUrl: string;
  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_TOKEN: TOKEN } });
    metricsUrl = h.url.replace('/graphql', '/metrics');
  });
  afterAll(() => h.close());

  async function scrape(): Promise<Sample[]> {
    const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return parsePrometheus(await response.text());
  }

  it('is refused without METRICS_TOKEN', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: 'Bearer phx_full' } })).status).toBe(401);
  });

  it('counts upstream requests by route, method, status and attempt as the upstream logged them', async () => {
    const before = await scrape();
    h.reset();
    // A 503 retried once, a 429 waited out, a 500 (a partial answer), a refusal by a limit, a
    // wrong key, and plain reads.
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/2/',
      action: { kind: 'status', status: 503 },
      times: 1,
    });
    h.upstream.faults.add({
      path: '/activity_log/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      times: 1,
    });
    await h.gql(
      'query Screen { project(projectId: "1") { name destinationConfigs(first: 3) { totalCount } } }',
    );
    await h.gql('query One { project(projectId: "1") { destinationConfig(databaseId: 2) { name } } }');
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/3/',
      action: { kind: 'status', status: 500 },
      times: 1,
    });
    await h.gql(
      'query Partial { project(projectId: "1") { name destinationConfig(databaseId: 3) { name } } }',
    );
    await h.gql('query Log { project(projectId: "1") { activityLog(first: 2) { edges { node { id } } } } }');
    await h.gql(
      'query Bomb { project(projectId: "1") { destinationConfigs(first: 100) { edges { node { activity(first: 100) { edges { node { id } } } } } } } }',
    );
    await h.gql('{ project(projectId: "1") { name } }', {}, 'phx_wrong_key_123');
    const log = h.upstreamCalls();
    const after = await scrape();

    const delta = (name: string, where: Record<string, string>) =>
      total(after, name, where) - total(before, name, where);
    // Every upstream request the reference upstream saw is one count, under its route template.
    const byRoute = new Map<string, number>();
    for (const call of log) {
      const key = `${call.method} ${routeTemplate(call.path)} ${call.status}`;
      byRoute.set(key, (byRoute.get(key) ?? 0) + 1);
    }
    expect(byRoute.size).toBeGreaterThan(3);
    for (const [key, count] of byRoute) {
      const [method, route, status] = key.split(' ');
      expect(delta('gateway_upstream_requests_total', { method, route, status }), key).toBe(count);
    }
    expect(delta('gateway_upstream_requests_total', {})).toBe(log.length);
    expect(delta('gateway_upstream_requests_total', { status: '503', attempt: '1' })).toBe(1);
    expect(delta('gateway_upstream_requests_total', { status: '200', attempt: '2' })).toBe(2);
    expect(delta('gateway_upstream_retries_total', { reason: 'upstream_5xx' })).toBe(1);
    expect(delta('gateway_upstream_retries_total', { reason: 'rate_limited' })).toBe(1);
    expect(delta('gateway_upstream_rate_limit_waits_total', {})).toBe(1);
    expect(delta('gateway_upstream_rate_limit_wait_seconds_total', {})).toBe(1);
    expect(delta('gateway_upstream_request_duration_seconds_count', {})).toBe(log.length);

    expect(
      delta('gateway_graphql_operations_total', { operation: 'Screen', type: 'query', outcome: 'success' }),
    ).toBe(1);
    expect(delta('gateway_graphql_operations_total', { operation: 'Partial', outcome: 'partial' })).toBe(1);
    // Refused by a limit before it ran: its name is no label of its own (only operations whose key
    // the upstream accepted may add one).
    expect(
      delta('gateway_graphql_operations_total', { operation: 'other', type: 'query', outcome: 'error' }),
    ).toBe(1);
    expect(total(after, 'gateway_graphql_operations_total', { operation: 'Bomb' })).toBe(0);
    expect(delta('gateway_graphql_operations_total', { operation: 'anonymous' })).toBe(1);
    expect(delta('gateway_graphql_operation_duration_seconds_count', { operation: 'Log' })).toBe(1);
    expect(delta('gateway_graphql_errors_total', { code: 'UPSTREAM_ERROR' })).toBe(1);
    expect(delta('gateway_graphql_errors_total', { code: 'UNAUTHENTICATED' })).toBe(1);
    expect(delta('gateway_graphql_errors_total', { code: 'QUERY_TOO_COMPLEX' })).toBe(1);
    expect(delta('gateway_limits_refused_total', { measure: 'upstreamCalls' })).toBe(1);
  });

  it('has pool gauges and process metrics, and bounded labels with no key, id or raw path', async () => {
    // 150 invented operation names: at most 100 get a series of their own, the rest fold.
    for (let i = 0; i < 150; i++) await h.gql(`query Invented${i} { __typename }`);
    await h.gql('query Screen { project(projectId: "1") { destinationConfig(databaseId: 7) { name } } }');
    const samples = await scrape();
    const names = new Set(
      samples.filter((s) => s.name === 'gateway_graphql_operations_total').map((s) => s.labels.operation),
    );
    expect(names.size).toBeLessThanOrEqual(102);
    expect(names).toContain('other');
    expect(total(samples, 'gateway_graphql_operations_total', { operation: 'other' })).toBeGreaterThanOrEqual(
      50,
    );
    for (const name of [
      'gateway_upstream_pool_connected_sockets',
      'gateway_upstream_pool_queued_requests',
      'gateway_upstream_pool_running_requests',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);
    }
    for (const route of new Set(samples.map((s) => s.labels.route).filter(Boolean))) {
      expect(route).toMatch(/^(\/api\/projects\/(:project_id\/)?[a-z_:/]*|other)$/);
    }
    const text = JSON.stringify(samples);
    for (const secret of ['phx_', 'Bearer', '/1/', '/7/', 'databaseId']) expect(text).not.toContain(secret);
  });
});

describe('operation names as labels', () => {
  it('only operations whose key the upstream accepted add a name: 100 invented without a key take no place', async () => {
    const h = await startHarness({ env: { METRICS_TOKEN: TOKEN } });
    try {
      for (let i = 0; i < 100; i++) {
        const { body } = await h.gql(`query Junk${i} { project(projectId: "1") { name } }`, {}, null);
        expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
      await h.gql('query Invented { project(projectId: "1") { name } }', {}, 'phx_wrong_key_123');
      expect(
        (await h.gql('query RealScreen { project(projectId: "1") { name } }')).body.errors,
      ).toBeUndefined();
      const response = await fetch(h.url.replace('/graphql', '/metrics'), {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const samples = parsePrometheus(await response.text());
      const names = new Set(
        samples.filter((s) => s.name === 'gateway_graphql_operations_total').map((s) => s.labels.operation),
      );
      expect(names).toEqual(new Set(['other', 'RealScreen']));
      expect(total(samples, 'gateway_graphql_operations_total', { operation: 'other' })).toBe(101);
    } finally {
      await h.close();
    }
  });
});

describe('METRICS=false', () => {
  it('serves no /metrics', async () => {
    const h = await startHarness({ env: { METRICS: 'false' } });
    try {
      expect((await fetch(h.url.replace('/graphql', '/metrics'))).status).toBe(404);
      expect((await h.gql('{ project(projectId: "1") { name } }')).body.data.project.name).toEqual(
        expect.any(String),
      );
    } finally {
      await h.close();
    }
  });
});
