// When an upstream call is tried again, and how long it waits first: the whole policy as data.
// Only reads are retried; a write (POST, PATCH, DELETE) is sent exactly once, because the
// upstream may have applied it whatever the answer looked like.

/** How a lost HTTP/2 stream or session shows (node:http2's codes, undici's informational one). */
export const HTTP2_RESET_CODES = [
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_STREAM_CANCEL',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_INVALID_SESSION',
  'ERR_HTTP2_SESSION_ERROR',
  'UND_ERR_INFO',
] as const;

export const RETRY_POLICY = {
  /** The methods that may be sent again. */
  methods: new Set(['GET']),
  /** Statuses that say "try again": the upstream or its proxy could not answer this time. */
  statuses: new Set([502, 503, 504]),
  /** Transport failures before the upstream could act on the request, or that say try again. */
  transportCodes: new Set([
    'ECONNREFUSED',
    'ECONNRESET',
    'UND_ERR_SOCKET',
    'EPIPE',
    'UND_ERR_CONNECT_TIMEOUT',
    'EAI_AGAIN',
    // HTTP/2: the stream was reset (REFUSED_STREAM, CANCEL, …) or closed before its answer, or the
    // session went away (GOAWAY): the call may go again on another stream or connection.
    ...HTTP2_RESET_CODES,
  ]),
  /** Exponential backoff: base × 2^(retry − 1), plus up to `jitterMs` at random. */
  backoff: { baseMs: 100, jitterMs: 100 },
  // A 429 is waited out for its Retry-After (retry-after.ts: at least 1 s, at most
  // MAX_RETRY_AFTER_MS) when the wait fits in what is left of the request's deadline.
} as const;

/** Why a GET is tried again. */
export type RetryReason = 'rate_limited' | 'upstream_5xx' | 'transport';

export const isRetryableMethod = (method: string) => RETRY_POLICY.methods.has(method);

export const isRetryableStatus = (status: number) => RETRY_POLICY.statuses.has(status);

export const isRetryableTransportError = (error: unknown) =>
  RETRY_POLICY.transportCodes.has((error as { code?: string } | null)?.code ?? '');

/** The wait before retry number `retry` (1 = the first retry). */
export const backoffMs = (retry: number) =>
  RETRY_POLICY.backoff.baseMs * 2 ** (retry - 1) + Math.random() * RETRY_POLICY.backoff.jitterMs;

/** A Retry-After header as seconds within its bounds (retry-after.ts); null if none. */
export { retryAfterSeconds } from './retry-after.ts';
