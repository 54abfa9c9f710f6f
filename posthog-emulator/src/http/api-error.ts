// PostHog's error body (drf-exceptions-hog): {type, code, detail, attr}. Each constructor below
// reproduces one answer the real service gives, word for word, so the gateway is tested against
// the messages it will meet.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }
}

export const notAuthenticated = () =>
  new ApiError(
    401,
    'authentication_error',
    'not_authenticated',
    'Authentication credentials were not provided.',
    null,
    {
      'www-authenticate': 'Bearer',
    },
  );

export const authenticationFailed = () =>
  new ApiError(
    401,
    'authentication_error',
    'authentication_failed',
    'Personal API key found in request Authorization header is invalid.',
    null,
    { 'www-authenticate': 'Bearer' },
  );

export const permissionDenied = (detail: string) =>
  new ApiError(403, 'authentication_error', 'permission_denied', detail);

export const missingScope = (scope: string) => permissionDenied(`API key missing required scope '${scope}'`);

export const notFound = (detail = 'Not found.') => new ApiError(404, 'invalid_request', 'not_found', detail);

/** Django's handler404, as PostHog sets it: a path no route matches, before any authentication. */
export const endpointNotFound = () => notFound('Endpoint not found.');

export const validationError = (attr: string | null, code: string, detail: string) =>
  new ApiError(400, 'validation_error', code, detail, attr);

export const methodNotAllowed = (method: string) =>
  new ApiError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);

export const throttled = (waitSeconds: number) =>
  new ApiError(
    429,
    'throttled_error',
    'throttled',
    `Request was throttled. Expected available in ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}.`,
    null,
    { 'retry-after': String(waitSeconds) },
  );

export const serverError = () => new ApiError(500, 'server_error', 'error', 'A server error occurred.');
