// One attempt of an upstream call: the request on the upstream's connections with the caller's key, its answer read
// whole (so the socket goes back to the pool), and what it became: the answer, or an
// AttemptFailure saying whether the retry policy may try again (retry.ts).
import type { GraphQLError } from 'graphql';
import { malformedUpstreamBody, upstreamTimeout } from '../errors/codes.ts';
import type { CallerOptions, UpstreamCall, UpstreamResponse } from './call.ts';
import { CLIENT_HEADER, GATEWAY_CLIENT, isWrite } from './client-name.ts';
import type { UpstreamConnections } from './connections.ts';
import { deprecationOf, type UpstreamDeprecation } from './deprecation.ts';
import {
  mayHaveReachedUpstream,
  transportError,
  unknownWriteOutcome,
  upstreamStatusError,
} from './errors.ts';
import { Exchange } from './exchange.ts';
import { RequestDeadline } from './request-signal.ts';
import {
  isRetryableMethod,
  isRetryableStatus,
  isRetryableTransportError,
  type RetryReason,
  retryAfterSeconds,
} from './retry.ts';
import { decodeUtf8 } from './wire/answer-body.ts';

export const USER_AGENT = 'destinations-graphql-gateway/0.1';

/** What an attempt needs of the client: its connections and its timeouts and limits. */
export interface AttemptSettings {
  connections: UpstreamConnections;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** A larger answer is refused as malformed (UPSTREAM_UNAVAILABLE), as soon as it is seen. */
  maxResponseBytes: number;
  /** The longest wait a 429's Retry-After may ask (MAX_RETRY_AFTER_MS). */
  maxRetryAfterMs?: number;
}

export class AttemptFailure {
  constructor(
    readonly error: GraphQLError,
    readonly retryable: boolean,
    /** How long to wait before the retry, when the upstream said (Retry-After). */
    readonly waitMs: number | null = null,
  ) {}

  get retryReason(): RetryReason {
    const status = (this.error.extensions.upstream as { status?: number } | undefined)?.status;
    if (status === 429) return 'rate_limited';
    return status === undefined ? 'transport' : 'upstream_5xx';
  }
}

/** Why nothing more may start for this caller, as the error a field gets; null while it may. */
export function stopped(caller: CallerOptions): GraphQLError | null {
  if (caller.signal.aborted) {
    return caller.signal.reason instanceof RequestDeadline
      ? upstreamTimeout('the request deadline')
      : transportError(caller.signal.reason, false);
  }
  return Date.now() >= caller.deadline ? upstreamTimeout('the request deadline') : null;
}

/** The call's query as sent (`?a=1&b=2`; '' for none): part of what tells reads apart. */
export function queryString(query: UpstreamCall['query']): string {
  let text = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value])
      text += `${text ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(one))}`;
  }
  return text;
}

function headersFor(call: UpstreamCall, caller: CallerOptions, observed?: Record<string, string>) {
  const headers: Record<string, string> = {
    ...observed,
    authorization: caller.authorization!,
    accept: 'application/json',
    'user-agent': USER_AGENT,
  };
  if (caller.requestId) headers['x-request-id'] = caller.requestId;
  if (isWrite(call.method)) headers[CLIENT_HEADER] = GATEWAY_CLIENT;
  let body: string | undefined;
  if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.form).toString();
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  return { headers, body };
}

export async function attempt(
  settings: AttemptSettings,
  call: UpstreamCall,
  caller: CallerOptions,
  attemptNumber: number,
): Promise<UpstreamResponse | AttemptFailure> {
  const observation = caller.observer?.attemptStarted(call, attemptNumber);
  const { headers, body } = headersFor(call, caller, observation?.headers);
  const remaining = caller.deadline - Date.now();
  const started = performance.now();
  let status: number | null = null;
  let errorCode: string | null = null;
  let exchange: Exchange | null = null;
  /** Read once from a 2xx answer's head (it goes with the answer, kept or not). */
  let notice: UpstreamDeprecation | null | undefined;
  try {
    exchange = new Exchange(
      settings.connections.pool,
      {
        path: `${call.path}${queryString(call.query)}`,
        method: call.method,
        headers,
        body,
        // Only what undici schedules by: over HTTP/2 it would hold a write until every other
        // stream on its connection had finished, and hold the calls behind the write too. undici
        // never sends a call again here (no retry handler; a call whose stream or connection
        // fails is failed, never written again); retry.ts decides what is tried again, and
        // writes are not.
        idempotent: true,
        headersTimeout: Math.min(settings.headersTimeoutMs, Math.max(1, remaining)),
        bodyTimeout: settings.bodyTimeoutMs,
      },
      caller.signal,
      settings.maxResponseBytes,
    );
    const response = await exchange.done;
    status = response.statusCode;
    const { chunks } = response;
    const contentType = String(response.headers['content-type'] ?? '');
    if (status >= 400) {
      const failure = statusFailure(
        call,
        status,
        decodeUtf8(chunks),
        response.headers['retry-after'],
        caller,
        settings.maxRetryAfterMs,
      );
      errorCode = failure.error.extensions.code as string;
      return failure;
    }
    const parsed = call.parseAnswer === false ? null : parseBody(decodeUtf8(chunks), contentType);
    notice = deprecationOf(response.headers);
    return { status, contentType, body: parsed, chunks, deprecation: notice };
  } catch (error) {
    // The head's status when the failure came after it (mid-body), for the log and the metrics.
    status = exchange?.status ?? null;
    const failure =
      error instanceof AttemptFailure
        ? error
        : status !== null && status >= 400
          ? // An error's head came, and its body was cut: the head says what the answer was (a
            // 429's Retry-After is waited out, a 4xx is not asked again).
            statusFailure(
              call,
              status,
              '',
              exchange!.headers['retry-after'],
              caller,
              settings.maxRetryAfterMs,
            )
          : transportFailure(call, caller, error);
    errorCode = failure.error.extensions.code as string;
    return failure;
  } finally {
    const durationMs = performance.now() - started;
    // Any answer's head, a refusal's too: an empty object until the head came.
    const deprecation = notice !== undefined ? notice : exchange ? deprecationOf(exchange.headers) : null;
    caller.onAttempt?.({ method: call.method, path: call.path, status, durationMs, deprecation });
    observation?.finished({ status, errorCode, durationMs, deprecation });
  }
}

function transportFailure(call: UpstreamCall, caller: CallerOptions, error: unknown): AttemptFailure {
  const deadlineHit = caller.signal.reason instanceof RequestDeadline || Date.now() >= caller.deadline - 1;
  // A read is sent again whenever its transport failed in a way that says try again, even after
  // a success's head came (a body cut by a reset or a closing connection): a read changes
  // nothing upstream, and a head without its body is no answer.
  const retryable = isRetryableMethod(call.method) && isRetryableTransportError(error);
  const failure = transportError(error, deadlineHit);
  // A write cut after it may have reached the upstream may have been applied.
  const unknown = call.method !== 'GET' && (deadlineHit || mayHaveReachedUpstream(error));
  return new AttemptFailure(unknown ? unknownWriteOutcome(failure) : failure, retryable);
}

function statusFailure(
  call: UpstreamCall,
  status: number,
  text: string,
  retryAfterHeader: string | string[] | undefined,
  caller: CallerOptions,
  maxRetryAfterMs: number | undefined,
): AttemptFailure {
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const retryAfter = retryAfterSeconds(retryAfterHeader, maxRetryAfterMs);
  const error = upstreamStatusError(call, status, parsed, retryAfter);
  // A 4xx write was refused; after a 5xx nobody can say what the upstream did.
  if (!isRetryableMethod(call.method))
    return new AttemptFailure(status >= 500 ? unknownWriteOutcome(error) : error, false);
  if (status === 429) {
    // Wait out the rate limit only when the wait fits in the request's deadline.
    const fits = retryAfter !== null && Date.now() + retryAfter * 1000 < caller.deadline;
    return new AttemptFailure(error, fits, fits ? retryAfter! * 1000 : null);
  }
  return new AttemptFailure(error, isRetryableStatus(status));
}

function parseBody(text: string, contentType: string): unknown {
  if (text.length === 0) return null;
  if (!/\bjson\b/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new AttemptFailure(malformedUpstreamBody(), false);
  }
}
