// The per-request context: the caller's key, an upstream client bound to it (deadline, abort
// signal, call accounting) and fresh loaders. Nothing in it outlives the GraphQL request.
import { createLoaders, type Loaders } from './loaders.ts';
import type { CursorCodec } from './schema/cursors.ts';
import type { CallerUpstream, UpstreamAttempt, UpstreamCall, UpstreamClient } from './upstream/client.ts';

export interface UpstreamCallLog {
  attempts: UpstreamAttempt[];
}

export interface GatewayContext {
  /** The caller's Authorization header exactly as received; null when absent. */
  authorization: string | null;
  upstream: CallerUpstream;
  loaders: Loaders;
  cursors: CursorCodec;
  calls: UpstreamCallLog;
}

export interface ContextDeps {
  client: UpstreamClient;
  cursors: CursorCodec;
  requestDeadlineMs: number;
  /** Throws to refuse an attempt (the upstream-call budget); called before each one. */
  beforeAttempt?: (call: UpstreamCall, log: UpstreamCallLog) => void;
}

export function createContext(deps: ContextDeps, request: Request): GatewayContext {
  const authorization = request.headers.get('authorization');
  const calls: UpstreamCallLog = { attempts: [] };
  const upstream = deps.client.forCaller({
    authorization: authorization && authorization.trim() !== '' ? authorization : null,
    signal: request.signal,
    deadline: Date.now() + deps.requestDeadlineMs,
    beforeAttempt: deps.beforeAttempt && ((call) => deps.beforeAttempt!(call, calls)),
    onAttempt: (attempt) => calls.attempts.push(attempt),
  });
  return { authorization, upstream, loaders: createLoaders(upstream), cursors: deps.cursors, calls };
}
