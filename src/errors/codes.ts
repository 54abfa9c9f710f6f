// The error catalogue every layer uses: the stable `extensions.code` values callers may branch on
// (the table in docs/errors-and-limits.md), and the errors made with them that more than one
// layer raises. A leaf module: it imports no layer of the gateway.
import { GraphQLError } from 'graphql';

export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_USER_INPUT',
  'RATE_LIMITED',
  'CONCURRENCY_LIMITED',
  'CONFLICT',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_ERROR',
  'UPSTREAM_UNSUPPORTED',
  'PAYMENT_REQUIRED',
  'QUERY_TOO_COMPLEX',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'CORS_ORIGIN_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_ONLY',
  'INTERNAL_SERVER_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function codedError(
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

export const badUserInput = (message: string, extensions: Record<string, unknown> = {}) =>
  codedError('BAD_USER_INPUT', message, extensions);

const MISSING_AUTHORIZATION = 'Send your PostHog personal API key as "Authorization: Bearer <key>".';

/** No key was sent: nothing was asked of the upstream. */
export const missingAuthorization = () => codedError('UNAUTHENTICATED', MISSING_AUTHORIZATION);

/** An Authorization header without the Bearer scheme: nothing was asked of the upstream. */
export const misspeltAuthorization = () =>
  codedError(
    'UNAUTHENTICATED',
    'The Authorization header is not "Bearer <key>": send your PostHog personal API key as "Authorization: Bearer <key>" (the word Bearer, a space, the key).',
  );

/** The gateway's own refusal for want of a key (not an upstream 401), wherever it was raised. */
export const isMissingAuthorization = (error: unknown) =>
  error instanceof GraphQLError &&
  error.extensions?.code === 'UNAUTHENTICATED' &&
  error.message === MISSING_AUTHORIZATION;

export const upstreamTimeout = (what: string) =>
  codedError('UPSTREAM_TIMEOUT', `The upstream did not answer in time (${what}).`);

export const upstreamUnavailable = (why: string) =>
  codedError('UPSTREAM_UNAVAILABLE', `The upstream is unavailable: ${why}.`);

export const malformedUpstreamBody = () =>
  codedError('UPSTREAM_UNAVAILABLE', 'The upstream answered with a body that is not the JSON it should be.');

/**
 * A write the upstream confirmed, whose result could not be read back: the change stands, so the
 * caller must not repeat it. `writeOutcome: "applied"` says so; the code is the read's.
 */
export function writeAppliedButUnread(error: unknown, done: string): GraphQLError {
  const read = error instanceof GraphQLError ? error : upstreamUnavailable('transport error');
  return new GraphQLError(`${done}, but reading the config back failed: ${read.message} Do not repeat it.`, {
    extensions: { ...read.extensions, writeOutcome: 'applied' },
  });
}

export const isNotFound = (error: unknown) =>
  error instanceof GraphQLError && error.extensions?.code === 'NOT_FOUND';

/**
 * Not there for this key: a 404, or a 403 that names no missing scope (PostHog's "You don't have
 * access to the project."). A 403 for a missing scope is the key's limit, and stays an error.
 */
export const isOutOfReach = (error: unknown) =>
  isNotFound(error) ||
  (error instanceof GraphQLError &&
    error.extensions?.code === 'FORBIDDEN' &&
    error.extensions.requiredScope === undefined);
