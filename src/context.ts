// The per-request context: the caller's key, an upstream client bound to it (one abort signal,
// the deadline, call accounting) and fresh loaders. Nothing in it outlives the GraphQL request.
import type { ServerResponse } from 'node:http';
import { tooComplex } from './limits/too-complex.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import { requestIdOf } from './operations/request-id.ts';
import {
  type CallerUpstream,
  ClientGone,
  RequestDeadline,
  RequestSignal,
  type UpstreamAttempt,
  type UpstreamClient,
  type UpstreamObserver,
} from './upstream/client.ts';

export interface UpstreamCallLog {
  /** Calls started (a retried call counts once). */
  calls: number;
  attempts: UpstreamAttempt[];
}

export interface GatewayContext {
  /** x-request-id of the answer (request-id.ts). */
  requestId: string;
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
  /** What sees this request's upstream attempts (metrics, its trace); none when all are off. */
  observe?: (request: Request, requestId: string) => UpstreamObserver | undefined;
}

/** What node's HTTP server hands yoga besides the request (absent when called through fetch). */
export interface NodeServerContext {
  /** Its `close` before the answer is finished means the client went away. */
  res?: ServerResponse;
}

/**
 * One signal for all the upstream work of a GraphQL request: aborted with a RequestDeadline when
 * the deadline passes and with a ClientGone when the client disconnects. (The request's own
 * signal from @whatwg-node/server is not used for this: it stops firing once AbortSignal.any()
 * has been called on it, so retries and waits went on for a caller long gone.)
 */
function requestSignal(deadlineMs: number, request: Request, server: NodeServerContext): RequestSignal {
  const signal = new RequestSignal();
  const deadline = setTimeout(() => signal.abort(new RequestDeadline('deadline')), deadlineMs);
  deadline.unref();
  const clientGone = () => {
    clearTimeout(deadline);
    signal.abort(new ClientGone('client gone'));
  };
  const { res } = server;
  if (res) {
    res.once('close', () => (res.writableFinished ? clearTimeout(deadline) : clientGone()));
  } else {
    request.signal.addEventListener('abort', clientGone, { once: true });
  }
  return signal;
}

export function createContext(
  deps: ContextDeps,
  request: Request,
  server: NodeServerContext = {},
): GatewayContext {
  const authorization = request.headers.get('authorization');
  const requestId = requestIdOf(request);
  const calls: UpstreamCallLog = { calls: 0, attempts: [] };
  const upstream = deps.client.forCaller({
    authorization: authorization && authorization.trim() !== '' ? authorization : null,
    requestId,
    observer: deps.observe?.(request, requestId),
    signal: requestSignal(deps.requestDeadlineMs, request, server),
    deadline: Date.now() + deps.requestDeadlineMs,
    beforeCall: () => {
      if (calls.calls >= deps.maxUpstreamCalls) {
        throw tooComplex('upstreamCalls', calls.calls + 1, deps.maxUpstreamCalls);
      }
      calls.calls++;
    },
    onAttempt: (attempt) => calls.attempts.push(attempt),
  });
  return { requestId, authorization, upstream, loaders: createLoaders(upstream), calls };
}
