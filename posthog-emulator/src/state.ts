// What the reference upstream holds while it runs: its data, the request log, the faults and the
// rate limit a test set, and how it answers.
import type { Dialect } from './dialect.ts';
import type { Faults } from './http/faults.ts';
import type { Store } from './store.ts';
import type { Throttle } from './http/throttle.ts';

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** The Authorization header exactly as received. */
  authorization: string | undefined;
  /** The `x-request-id` and W3C `traceparent` headers as received (how a call is followed end to end). */
  requestId: string | undefined;
  traceparent: string | undefined;
  /** null when the connection was reset instead of answered. */
  status: number | null;
  /** The body as the upstream parsed it (form fields as strings); null when empty or unreadable. */
  body: Record<string, unknown> | null;
  /** Epoch milliseconds, sub-millisecond precision: when the request arrived and was answered. */
  start: number;
  end: number;
}

export interface UpstreamState {
  store: Store;
  readonly dialect: Dialect;
  /** The origin its links are written with; the Host of each request when not set. */
  readonly publicBase: string | undefined;
  /** false: the legacy pipeline routes are gone, as PostHog PR #97440 removes them. */
  readonly legacyRoutes: boolean;
  readonly requests: RequestLogEntry[];
  readonly faults: Faults;
  readonly throttle: Throttle;
}
