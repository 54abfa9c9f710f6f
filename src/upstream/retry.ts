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
  /**
   * A 429 is waited out for its Retry-After, held between 1 second and an hour, and only when
   * the wait fits in what is left of the request's deadline: a date in the past (or 0) must not
   * retry at once, over and over, and 99,999,999 seconds overflowed setTimeout, which then fired
   * after 1 ms (a poller made ~600 GETs a second). PostHog's longest window is the hour.
   */
  retryAfterSeconds: { min: 1, max: 3_600 },
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

/** A Retry-After header (seconds or an HTTP date) as seconds within the policy's bounds; null if none. */
export function retryAfterSeconds(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  const at = /^\d+$/.test(trimmed) ? Date.now() + Number(trimmed) * 1000 : Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  const seconds = Math.ceil((at - Date.now()) / 1000);
  const { min, max } = RETRY_POLICY.retryAfterSeconds;
  return Math.min(max, Math.max(min, seconds));
}
