// Traces through a real OTLP/HTTP receiver on port 0, which decodes the JSON export it gets: a
// span per operation under the caller's traceparent, a child span per upstream attempt (route
// template, method, status, attempt, retry reason), each attempt's traceparent as the upstream
// received it, and no key, header value or variable value anywhere in what was exported.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

function attribute(span: ExportedSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if ('arrayValue' in value) {
    return (value.arrayValue as { values: { stringValue: string }[] }).values.map((v) => v.stringValue);
  }
  const raw = Object.values(value)[0];
  return typeof raw === 'string' && /^\d+$/.test(raw) && 'intValue' in value ? Number(raw) : raw;
}

class OtlpReceiver {
  readonly spans: ExportedSpan[] = [];
  readonly bodies: string[] = [];
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      this.bodies.push(text);
      if (req.url === '/v1/traces') {
        const body = JSON.parse(text);
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) this.spans.push(...scope.spans);
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async waitFor(predicate: () => boolean): Promise<void> {
    await until(predicate, 'the spans', { everyMs: 25 });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  let h: Harness;
  const receiver = new OtlpReceiver();
  beforeAll(async () => {
    const endpoint = await receiver.start();
    h = await startHarness({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' } });
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('a span per operation under the caller traceparent, a child per upstream attempt, traceparent sent upstream', async () => {
    h.reset();
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/2/',
      action: { kind: 'status', status: 503 },
      times: 1,
    });
    const answer = await h.post(
      JSON.stringify({
        query:
          'query Traced($id: Int!) { project(projectId: "1") { name destinationConfig(databaseId: $id) { name } } }',
        variables: { id: 2 },
      }),
      {
        authorization: 'Bearer phx_full',
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
        'x-request-id': 'traced-1',
      },
    );
    expect(answer.body.errors).toBeUndefined();
    const upstreamCalls = h.upstreamCalls();
    expect(upstreamCalls).toHaveLength(3);
    await receiver.waitFor(() => receiver.spans.filter((s) => s.traceId === CALLER_TRACE).length >= 4);

    const spans = receiver.spans.filter((s) => s.traceId === CALLER_TRACE);
    const operations = spans.filter((s) => s.name === 'query Traced');
    expect(operations).toHaveLength(1);
    const operation = operations[0]!;
    expect(operation.parentSpanId).toBe(CALLER_SPAN);
    expect(attribute(operation, 'graphql.operation.type')).toBe('query');
    expect(attribute(operation, 'gateway.request_id')).toBe('traced-1');
    expect(attribute(operation, 'gateway.upstream.calls')).toBe(2);

    const attempts = spans.filter((s) => s.parentSpanId === operation.spanId);
    expect(attempts).toHaveLength(3);
    const route = '/api/projects/:project_id/pipeline_destination_configs/:id/';
    const configAttempts = attempts.filter((s) => s.name === `GET ${route}`);
    expect(
      configAttempts.map((s) => [attribute(s, 'gateway.attempt'), attribute(s, 'http.response.status_code')]),
    ).toEqual(
      expect.arrayContaining([
        [1, 503],
        [2, 200],
      ]),
    );
    const retried = configAttempts.find((s) => attribute(s, 'gateway.attempt') === 2)!;
    expect(attribute(retried, 'gateway.retry_reason')).toBe('upstream_5xx');
    expect(attribute(retried, 'url.template')).toBe(route);
    expect(attribute(retried, 'http.request.method')).toBe('GET');

    // What the upstream received: each attempt's own span as its parent, in the caller's trace.
    const sent = upstreamCalls.map((c) => c.traceparent);
    expect(new Set(sent)).toEqual(new Set(attempts.map((s) => `00-${CALLER_TRACE}-${s.spanId}-01`)));

    const exported = receiver.bodies.join('\n');
    for (const secret of ['phx_full', 'Bearer', '"2"', 'databaseId', '/pipeline_destination_configs/2/']) {
      expect(exported).not.toContain(secret);
    }
  });

  it('ends a span per operation over graphql-ws too, with a child per upstream attempt', async () => {
    const before = receiver.spans.length;
    const client = createWsClient({
      url: h.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: 'Bearer phx_full' },
      retryAttempts: 0,
    });
    const iterator = client.iterate({ query: 'query OverSocket { project(projectId: "1") { name } }' });
    expect((await iterator.next()).value.data.project.name).toBe('Hedgebox (production)');
    await iterator.return?.();
    await client.dispose();
    // Exported means ended: a span never ended is never sent.
    await receiver.waitFor(() => receiver.spans.slice(before).some((s) => s.name === 'query OverSocket'));
    const operation = receiver.spans.slice(before).find((s) => s.name === 'query OverSocket')!;
    await receiver.waitFor(() => receiver.spans.some((s) => s.parentSpanId === operation.spanId));
    const attempts = receiver.spans.filter((s) => s.parentSpanId === operation.spanId);
    expect(attempts.map((s) => s.name)).toEqual(['GET /api/projects/:project_id/']);
    expect(receiver.bodies.join('\n')).not.toContain('phx_full');
  });

  it('starts a new trace when the caller sends none', async () => {
    const before = receiver.spans.length;
    await h.gql('query Untraced { project(projectId: "1") { name } }');
    await receiver.waitFor(() => receiver.spans.slice(before).some((s) => s.name === 'query Untraced'));
    const operation = receiver.spans.slice(before).find((s) => s.name === 'query Untraced')!;
    expect(operation.parentSpanId ?? '').toBe('');
    expect(operation.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(operation.traceId).not.toBe(CALLER_TRACE);
  });
});

describe('tracing off', () => {
  it('sends no traceparent upstream when no endpoint is set', async () => {
    const h = await startHarness();
    try {
      await h.gql('{ project(projectId: "1") { name } }');
      expect(h.upstreamCalls().every((c) => c.traceparent === undefined)).toBe(true);
    } finally {
      await h.close();
    }
  });
});
