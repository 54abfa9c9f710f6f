// The upstream client as gateway.ts makes it, in front of a reference upstream served over TLS,
// trusting the test certificate (UPSTREAM_CA_FILE); a caller of it; what the upstream saw.

import type { ReferenceUpstream } from 'posthog-emulator';
import { loadConfig } from '../../src/config/index.ts';
import { createUpstreamClient } from '../../src/gateway.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import type { KeyBudget } from '../../src/upstream/keys/budget.ts';
import { RequestSignal } from '../../src/upstream/request-signal.ts';

export function clientFor(
  upstream: ReferenceUpstream,
  certFile: string,
  env: Record<string, string> = {},
  budget?: KeyBudget,
): UpstreamClient {
  const config = loadConfig({ UPSTREAM_URL: upstream.url, UPSTREAM_CA_FILE: certFile, ...env });
  return createUpstreamClient(config, upstream.url, budget);
}

/** One GraphQL request's calls: a caller with the key, a deadline and its signal. */
export function callerOf(client: UpstreamClient, deadlineMs = 10_000, key = 'phx_full') {
  const signal = new RequestSignal();
  const caller = client.forCaller({
    authorization: `Bearer ${key}`,
    signal,
    deadline: Date.now() + deadlineMs,
  });
  return Object.assign(caller, { signal });
}

/** The most calls the upstream was answering at once, from its request log. */
export function peakInFlight(upstream: ReferenceUpstream): number {
  const calls = upstream.requests;
  return Math.max(...calls.map((c) => calls.filter((o) => o.start <= c.start && c.start < o.end).length));
}
