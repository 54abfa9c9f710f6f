// How the WebSocket transport takes an operation's result from the gateway's own request
// pipeline: a request it sends through gateway.fetch carries a RelaySlot in its server context,
// and this plugin, last of all, hands the result (one result, or the stream of a subscription,
// @live or @defer) to that slot as it is, after every other plugin has seen it (codes, the
// operation log, metrics), instead of serialising it to be parsed back. The HTTP answer itself
// is then empty. A shared live stream (shared-live-work.ts) runs its operation the same way.

import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { codedError } from '../errors/codes.ts';
import { withExtensions } from '../errors/masking.ts';
import type { LiveRefresh } from '../live/live-refresh.ts';

export type RelayedResult = ExecutionResult | AsyncIterable<ExecutionResult>;

export interface RelaySlot {
  result?: RelayedResult;
}

/** What the server context of a relayed request carries. */
export interface RelayContext {
  relay?: RelaySlot;
  /** The run of a shared live stream, not one of its subscribers (shared-live-work.ts). */
  sharedRun?: boolean;
  /** A shared live query's way to ask its run for a fresh answer (live-refresh.ts). */
  liveRefresh?: LiveRefresh;
}

/**
 * The HTTP request an operation stands for, or the error that refuses it (a key that is not a
 * valid header value: it is never echoed, nor logged).
 */
export function requestFor(
  endpoint: string,
  authorization: string | null,
  requestId: string | undefined,
  payload: unknown,
  signal: AbortSignal,
): Request | GraphQLError {
  const headers = new Headers({
    'content-type': 'application/json',
    // Taken by the relay before it is written; asked as HTTP clients ask, so that every answer,
    // a stream included, is one the gateway would give over HTTP.
    accept: 'application/graphql-response+json, application/json, text/event-stream',
  });
  try {
    if (authorization) headers.set('authorization', authorization);
  } catch {
    return codedError('UNAUTHENTICATED', 'The Authorization given is not a valid header value.');
  }
  if (requestId) headers.set('x-request-id', requestId);
  return new Request(`http://gateway.invalid${endpoint}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(payload),
    signal,
  });
}

/**
 * `extensions.http` says how an HTTP answer is made (its status, its headers): yoga takes it off
 * before it writes JSON, and so does the relay, so that a WebSocket client sees what HTTP ones do.
 */
export function withoutHttp(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((e) => e.extensions?.http)) return result;
  const errors = result.errors.map((error) => {
    if (!error.extensions?.http) return error;
    const { http: _, ...extensions } = error.extensions;
    return withExtensions(error, extensions);
  });
  return { ...result, errors };
}

export function useRelayedResults(): Plugin {
  return {
    onResultProcess({ result, serverContext, setResultProcessor }) {
      const slot = (serverContext as RelayContext | undefined)?.relay;
      if (!slot || Array.isArray(result)) return;
      slot.result = result as RelayedResult;
      setResultProcessor(() => new Response(null, { status: 204 }), 'application/json');
    },
  };
}
