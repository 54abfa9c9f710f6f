// OpenTelemetry traces: a SERVER span per GraphQL operation, a CLIENT span per upstream attempt
// under it, exported over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT. A caller's W3C
// `traceparent` makes the operation span a child of theirs, and each upstream attempt carries
// its own span's `traceparent`, so a trace runs from the frontend through here into PostHog.
//
// Off unless the endpoint is set, and then free: app.ts builds no Tracing, no span is made and
// this module's SDK is never loaded (main.ts imports it only when it is needed).
//
// No key, header value or variable value goes into a span: names and attributes are the route
// template, method, status, attempt, retry reason, operation name and type, request id and codes.
import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { AttemptObservation, UpstreamCall, UpstreamObserver } from '../upstream/call.ts';
import { routeTemplate } from '../upstream/posthog/paths.ts';
import type { RetryReason } from '../upstream/retry.ts';
import type { FinishedOperation } from './operation-record.ts';

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  /** How long spans are batched before they are sent (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
}

const propagator = new W3CTraceContextPropagator();
const SANE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const headerGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
};
const recordSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};

export class Tracing {
  private readonly provider: TracerProvider;
  private readonly tracer;
  private readonly spans = new WeakMap<Request, Span>();

  constructor(options: TracingOptions) {
    const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName }),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.scheduleDelayMs })],
    });
    this.tracer = this.provider.getTracer('destinations-graphql-gateway');
  }

  /** The operation's span, started when its request arrives, under the caller's traceparent. */
  private operationSpan(request: Request, requestId: string): Span {
    let span = this.spans.get(request);
    if (!span) {
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter);
      span = this.tracer.startSpan(
        'graphql',
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'gateway.request_id': requestId },
        },
        parent,
      );
      this.spans.set(request, span);
    }
    return span;
  }

  /** Spans for the upstream attempts of one request, each a child of its operation's span. */
  upstreamObserver(request: Request, requestId: string): UpstreamObserver {
    const parent: Context = trace.setSpan(ROOT_CONTEXT, this.operationSpan(request, requestId));
    const retryReasons = new WeakMap<UpstreamCall, RetryReason>();
    return {
      attemptStarted: (call, attempt): AttemptObservation => {
        const route = routeTemplate(call.path);
        const span = this.tracer.startSpan(
          `${call.method} ${route}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'http.request.method': call.method,
              'url.template': route,
              'gateway.attempt': attempt,
              'http.request.resend_count': attempt - 1,
              ...(retryReasons.has(call) ? { 'gateway.retry_reason': retryReasons.get(call) } : {}),
            },
          },
          parent,
        );
        const headers: Record<string, string> = {};
        propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, recordSetter);
        return {
          headers,
          finished: ({ status, errorCode }) => {
            if (status !== null) span.setAttribute('http.response.status_code', status);
            if (errorCode) {
              span.setAttribute('error.type', errorCode);
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
            span.end();
          },
        };
      },
      retrying: (call, reason) => retryReasons.set(call, reason),
    };
  }

  /** Names the operation's span after what ran, and ends it. */
  operationFinished = (operation: FinishedOperation): void => {
    const span = this.operationSpan(operation.request, operation.requestId);
    this.spans.delete(operation.request);
    const name = operation.name && SANE_NAME.test(operation.name) ? operation.name : null;
    span.updateName(`${operation.type ?? 'graphql'}${name ? ` ${name}` : ''}`);
    if (name) span.setAttribute('graphql.operation.name', name);
    if (operation.type) span.setAttribute('graphql.operation.type', operation.type);
    span.setAttribute('gateway.upstream.calls', operation.calls?.calls ?? 0);
    if (operation.errors.length > 0) {
      span.setAttribute(
        'gateway.error_codes',
        operation.errors.map((e) => String(e.extensions?.code ?? 'UNKNOWN')),
      );
      if (!operation.hasData) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };

  /** Sends what is batched; main.ts calls it on shutdown. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
