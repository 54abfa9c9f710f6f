// The OpenTelemetry SDK is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a gateway
// without tracing neither holds its code nor pays for a span.
import type { Config } from '../config/index.ts';
import type { Tracing } from './tracing.ts';

export async function loadTracing(config: Readonly<Config>): Promise<Tracing | null> {
  if (!config.tracing) return null;
  const { Tracing } = await import('./tracing.ts');
  return new Tracing(config.tracing);
}
