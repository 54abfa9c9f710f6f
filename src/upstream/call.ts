// What one upstream call is, what it answers, and the seams around it: the caller it is made for
// (key, deadline, signal, budget) and what operating the gateway observes of it.

import type { KeyHash } from '../core/caller-key.ts';
import type { UpstreamDeprecation } from './deprecation.ts';
import type { CallPriority } from './keys/priorities.ts';
import type { RequestSignal } from './request-signal.ts';
import type { RetryReason } from './retry.ts';

export type UpstreamMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface UpstreamCall {
  method: UpstreamMethod;
  /** Built by PATHS from validated segments. */
  path: string;
  /** A list repeats its key (`status=a&status=b`, as Django's getlist reads it). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (how the upstream accepts `config`). */
  form?: Record<string, string>;
  /**
   * false: a 2xx answer is not decoded or parsed (its body is null); the caller reads `chunks`
   * (a cursor page, which parses only the entries read: page-scan.ts).
   */
  parseAnswer?: boolean;
}

export interface UpstreamResponse {
  status: number;
  contentType: string;
  /**
   * Parsed JSON for a JSON answer, the text for any other, null for an empty body (and for a
   * call made with `parseAnswer: false`).
   */
  body: unknown;
  /**
   * The answer's bytes as received, in the chunks the socket delivered them (views of its read
   * buffers, not copies): what a cursor page keeps and reads its entries from (CursorPage).
   * Outside the JS heap: a scavenge copies only their small wrappers (the memory itself is freed
   * when a wrapper is collected, for a page kept to the end of its request at the next
   * mark-compact).
   */
  chunks: readonly Buffer[];
  /** What the answer's head said of its route's end (deprecation.ts): kept with a kept answer. */
  deprecation?: UpstreamDeprecation | null;
}

/** What one attempt did, for the operation log and the upstream-call budget. */
export interface UpstreamAttempt {
  method: UpstreamMethod;
  path: string;
  status: number | null;
  durationMs: number;
  /** What the answer's head said of its route's end (deprecation.ts); null when nothing. */
  deprecation?: UpstreamDeprecation | null;
}

/** How one attempt ended: its status, or the code of the error it failed with. */
export interface AttemptOutcome {
  status: number | null;
  /** The `extensions.code` of the failure; null when the upstream answered 2xx/3xx. */
  errorCode: string | null;
  durationMs: number;
  /** What the answer's head said of its route's end (deprecation.ts); null when nothing. */
  deprecation?: UpstreamDeprecation | null;
}

/**
 * What operating the gateway sees of upstream calls (metrics, traces). Called on the hot path:
 * nothing here may throw or wait.
 */
export interface UpstreamObserver {
  /** Before each attempt (1 = the first); the headers it returns are sent with the attempt. */
  attemptStarted(call: UpstreamCall, attempt: number): AttemptObservation;
  /** A GET is about to wait `waitMs` and try again. */
  retrying(call: UpstreamCall, reason: RetryReason, waitMs: number): void;
  /** A GET the kept answers (kept/answers.ts) saw through: how it was answered. */
  kept?(call: UpstreamCall, outcome: KeptOutcome): void;
}

/**
 * How kept answers answered a GET: `hit` (kept within its TTL), `joined` (a read in flight in this
 * process), `followed` (another process's read, through Redis), `stale` (kept, the upstream
 * failing), `miss` (read from the upstream).
 */
export type KeptOutcome = 'hit' | 'joined' | 'followed' | 'stale' | 'miss';

export interface AttemptObservation {
  headers?: Record<string, string>;
  finished(outcome: AttemptOutcome): void;
}

export interface CallerOptions {
  /** The caller's Authorization header as received; null when they sent none. */
  authorization: string | null;
  /** Sent upstream as `x-request-id`, so one call can be followed end to end. */
  requestId?: string;
  observer?: UpstreamObserver;
  /**
   * The GraphQL request's one signal: aborted with a RequestDeadline at its deadline, or with a
   * ClientGone when its client disconnects.
   */
  signal: RequestSignal;
  /** Epoch ms after which no upstream work is started or awaited. */
  deadline: number;
  /** Its class in the key's budget (keys/priorities.ts); interactive when not given. */
  priority?: CallPriority;
  /** Called once before each call (not each retry); throwing refuses it (the upstream-call budget). */
  beforeCall?: (call: UpstreamCall) => void;
  onAttempt?: (attempt: UpstreamAttempt) => void;
  /** A kept answer served because the upstream could not answer (upstream/kept/answers.ts): its path and age. */
  onStale?: (served: StaleAnswer) => void;
  /**
   * An answer of `path` this caller did not read itself (kept, or a read in flight it joined:
   * kept/answers.ts) whose head said its route is going: onAttempt told only the reader.
   */
  onKeptDeprecation?: (path: string, deprecation: UpstreamDeprecation) => void;
}

/** An answer kept `ageSeconds` ago that answered a call to `path` the upstream failed. */
export interface StaleAnswer {
  path: string;
  ageSeconds: number;
}

/** An upstream client bound to one GraphQL request: its caller's key, deadline and signal. */
export interface CallerUpstream {
  request(call: UpstreamCall): Promise<UpstreamResponse>;
  /** The caller's key, hashed: what anything kept beyond the request is keyed by (none: no key). */
  keyHash(): KeyHash | null;
}
