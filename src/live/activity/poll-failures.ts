// What a failed read of the activity log means for its streams: whether it ends them, and when
// to read again.
import type { GraphQLError } from 'graphql';
import { codedError } from '../../errors/codes.ts';
import { MAX_CATCH_UP_PAGES } from './news.ts';

const MAX_BACKOFF_MS = 60_000;

/** After the `failures`-th transient failure in a row: a 429's Retry-After, else doubling. */
export function retryDelayMs(error: GraphQLError, failures: number, pollMs: number): number {
  const retryAfter = Number(error.extensions?.retryAfter);
  if (error.extensions?.code === 'RATE_LIMITED' && retryAfter > 0) return retryAfter * 1000;
  return Math.min(MAX_BACKOFF_MS, pollMs * 2 ** failures);
}

/** Past the catch-up bound; `when` says where the entries left out came (a resumed feed: after `after`). */
export const catchUpExceeded = (when = 'between two polls') =>
  codedError(
    'QUERY_TOO_COMPLEX',
    `More than ${MAX_CATCH_UP_PAGES} pages of activity arrived ${when}: the older entries were left out (read them with Project.activityLog).`,
    { measure: 'activityCatchUpPages', limit: MAX_CATCH_UP_PAGES },
  );

/**
 * Answers that polling again cannot change: the key is refused (401, 403), the project is not
 * there for it (404), its plan has no audit logs (402), or the upstream no longer serves the log.
 * Timeouts, 5xx and 429 pass; they keep the stream.
 */
export const ENDING_CODES: ReadonlySet<string> = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYMENT_REQUIRED',
  'UPSTREAM_UNSUPPORTED',
]);
