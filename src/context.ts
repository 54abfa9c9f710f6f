// The per-request context: the caller's key, an upstream client bound to it (deadline, abort
// signal, call accounting) and fresh loaders. Nothing in it outlives the GraphQL request.

import { tooComplex } from './limits/too-complex.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import type { CallerUpstream, UpstreamAttempt, UpstreamClient } from './upstream/client.ts';

export interface UpstreamCallLog {
  /** Calls started (a retried call counts once). */
  calls: number;
  attempts: UpstreamAttempt[];
}

export interface GatewayContext {
  /** The caller's Authorization header exactly as received; null when absent. */
  authorization: string | null;
  upstream: CallerUpstream;
  loaders: Loaders;
  calls: UpstreamCallLog;
}

export interface ContextDeps {
  client: UpstreamClient;
  requestDeadlineMs: number;
  /**
   * The most upstream calls one GraphQL request may make. query-cost.ts refuses operations
   * that could exceed it before they run; this is the backstop should an estimate be low.
   */
  maxUpstreamCalls: number;
}

export function createContext(deps: ContextDeps, request: Request): GatewayContext {
  const authorization = request.headers.get('authorization');
  const calls: UpstreamCallLog = { calls: 0, attempts: [] };
  const upstream = deps.client.forCaller({
    authorization: authorization && authorization.trim() !== '' ? authorization : null,
    signal: request.signal,
    deadline: Date.now() + deps.requestDeadlineMs,
    beforeCall: () => {
      if (calls.calls >= deps.maxUpstreamCalls) {
        throw tooComplex('upstreamCalls', calls.calls + 1, deps.maxUpstreamCalls);
      }
      calls.calls++;
    },
    onAttempt: (attempt) => calls.attempts.push(attempt),
  });
  return { authorization, upstream, loaders: createLoaders(upstream), calls };
}
