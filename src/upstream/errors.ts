// Where an upstream answer or a transport failure becomes a GraphQL error with a stable
// `extensions.code` of the catalogue (errors/codes.ts; the table in docs/errors-and-limits.md). Nothing from the caller's
// request (their key, the upstream URL, headers) and nothing of an upstream body beyond its
// `detail`, `code` and `attr` ever reaches an error.
import { GraphQLError } from 'graphql';
import { codedError, upstreamTimeout, upstreamUnavailable } from '../errors/codes.ts';
import { conflictError } from './posthog/conflict.ts';
import { insteadOf, isRemovedAnswer } from './posthog/removed.ts';
import { HTTP2_RESET_CODES } from './retry.ts';

/** The parts of an upstream error body the gateway may repeat. */
interface UpstreamErrorBody {
  code?: unknown;
  detail?: unknown;
  attr?: unknown;
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The upstream rejected the input.',
  401: 'The upstream did not accept the API key.',
  403: 'The API key may not do this.',
  404: 'Not found.',
  405: 'The upstream does not allow this operation.',
  422: 'The upstream rejected the input.',
  402: 'The upstream requires a paid plan for this.',
  429: 'The upstream is rate limiting this key.',
};

function textOrNull(value: unknown, maxLength = 500): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, maxLength) : null;
}

/**
 * DRF's own field map, which some actions answer as it is (`Response(serializer.errors, 400)`,
 * e.g. hog functions' invocations): the first field's first message, the path joined as PostHog's
 * `attr` joins it (`configuration__inputs__url`). Only a message string is repeated.
 */
function firstFieldError(body: object, path: string[] = []): { field: string; message: string } | null {
  for (const [key, value] of Object.entries(body)) {
    if (!/^[A-Za-z0-9_]{1,64}$/.test(key) || path.length >= 4) continue;
    const field = [...path, key].join('__');
    const first = Array.isArray(value) ? value[0] : value;
    const message = textOrNull(first);
    if (message) return { field, message };
    if (first && typeof first === 'object') return firstFieldError(first, [...path, key]);
  }
  return null;
}

/** Maps an upstream answer whose status is not 2xx. */
export function upstreamStatusError(
  call: { method: string; path: string },
  status: number,
  body: unknown,
  retryAfterSeconds: number | null,
): GraphQLError {
  const parsed = (body && typeof body === 'object' ? body : {}) as UpstreamErrorBody;
  const upstreamCode = textOrNull(parsed.code, 100);
  const detail = textOrNull(parsed.detail);
  const upstream = { status, code: upstreamCode };
  const message = detail ?? DEFAULT_MESSAGES[status] ?? `The upstream answered ${status}.`;
  if (isRemovedAnswer(status, detail))
    return codedError('UPSTREAM_UNSUPPORTED', insteadOf(call), { upstream });
  if (status === 402) return codedError('PAYMENT_REQUIRED', message, { upstream });
  if (status === 401) return codedError('UNAUTHENTICATED', message, { upstream });
  if (status === 403) {
    const scope = detail ? /required scope '([^']+)'/.exec(detail)?.[1] : undefined;
    if (scope) return codedError('FORBIDDEN', message, { upstream, requiredScope: scope });
    // PostHog's feature flags: "Higher frequency batch exports are not enabled for this team."
    if (detail && / (?:is|are) not enabled for this team\.$/.test(detail))
      return codedError('FORBIDDEN', message, { upstream, reason: 'FEATURE_NOT_ENABLED' });
    return codedError('FORBIDDEN', message, { upstream });
  }
  if (status === 404) return codedError('NOT_FOUND', message, { upstream });
  if (status === 400 || status === 405 || status === 422) {
    const isFieldMap = !('detail' in parsed || 'code' in parsed || 'attr' in parsed);
    const raw = isFieldMap ? firstFieldError(parsed) : null;
    if (raw)
      return codedError('BAD_USER_INPUT', `${raw.field}: ${raw.message}`, { upstream, field: raw.field });
    return codedError('BAD_USER_INPUT', message, { upstream, field: textOrNull(parsed.attr, 100) });
  }
  // PostHog's too_many_concurrent_backfills is a plain APIException with status 429: a cap on
  // work running, not the key's rate (no Retry-After; the key is not paused, the call not retried).
  if (status === 429 && upstreamCode === 'too_many_concurrent_backfills')
    return codedError('CONCURRENCY_LIMITED', message, { upstream });
  if (status === 409) return conflictError(call, upstreamCode, upstream);
  if (status === 429) return codedError('RATE_LIMITED', message, { upstream, retryAfter: retryAfterSeconds });
  if (status >= 500) {
    return codedError('UPSTREAM_ERROR', detail ?? 'The upstream failed to answer this request.', {
      upstream,
    });
  }
  return codedError('UPSTREAM_ERROR', `The upstream answered with an unexpected status ${status}.`, {
    upstream,
  });
}

const TIMEOUT_CODES: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** Maps an undici (or abort) error; `deadlineHit` says the request's own deadline expired. */
export function transportError(error: unknown, deadlineHit: boolean): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (deadlineHit) return upstreamTimeout('the request deadline');
  const code = (error as { code?: string } | null)?.code ?? '';
  if (TIMEOUT_CODES[code]) return upstreamTimeout(TIMEOUT_CODES[code]);
  if (code === 'ECONNREFUSED') return upstreamUnavailable('connection refused');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return upstreamUnavailable('connection reset');
  }
  if ((HTTP2_RESET_CODES as readonly string[]).includes(code)) return upstreamUnavailable('stream reset');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return upstreamUnavailable('host not found');
  const name = (error as Error | null)?.name;
  if (name === 'AbortError' || name === 'ClientGone' || code === 'UND_ERR_ABORTED') {
    return upstreamUnavailable('the request was cancelled');
  }
  return upstreamUnavailable('transport error');
}

/** Connection failures that happen before a request is sent: the upstream never saw it. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a request that failed with this transport error may have reached the upstream. */
export const mayHaveReachedUpstream = (error: unknown) =>
  !NEVER_SENT_CODES.has((error as { code?: string } | null)?.code ?? '');

/**
 * A write that failed after it may have reached the upstream (cut by a timeout or a lost
 * connection, or answered 5xx): it may have been applied, so retrying it blindly may apply it
 * twice. The code stays; `writeOutcome: "unknown"` and the message say so.
 */
export function unknownWriteOutcome(error: GraphQLError): GraphQLError {
  return new GraphQLError(
    `${error.message} The upstream may have applied this change: read it again before retrying.`,
    { extensions: { ...error.extensions, writeOutcome: 'unknown' } },
  );
}
