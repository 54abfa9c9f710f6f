// The only code that speaks HTTP to the REST upstream. One keep-alive undici Pool per upstream
// origin (undici-pool.ts), bounded in connections; calls beyond them wait, the oldest operation's
// first (oldest-first.ts). Every request:
// - carries the caller's Authorization header exactly as received, to the configured origin only;
// - runs under the GraphQL request's one abort signal, which fires at its deadline or when its
//   client goes away: after that no call, retry or wait starts, and calls in flight are cut;
// - always consumes the response body, so the socket goes back to the pool;
// - is retried only when it is a GET: on connection errors and 502/503/504 with exponential
//   backoff and jitter, and on 429 when Retry-After fits in what is left of the deadline.
//   POST, PATCH and DELETE are sent exactly once; when one fails after it may have reached the
//   upstream, the error says its outcome is unknown.
import { EventEmitter } from 'node:events';
import type { GraphQLError } from 'graphql';
import { malformedUpstreamBody, missingAuthorization, upstreamTimeout } from '../errors/codes.ts';
import { decodeUtf8, readChunks } from './answer-body.ts';
import {
  isRetryableTransportError,
  mayHaveReachedUpstream,
  transportError,
  unknownWriteOutcome,
  upstreamStatusError,
} from './errors.ts';
import { OldestFirstGate } from './oldest-first.ts';
import { Pool, requestOn } from './undici-pool.ts';

export type UpstreamMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface UpstreamCall {
  method: UpstreamMethod;
  /** Built by PATHS from validated segments. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
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
}

export interface UpstreamClientOptions {
  origin: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  retries: number;
  maxConnections: number;
  /** A larger answer is refused as malformed (UPSTREAM_UNAVAILABLE), as soon as it is seen. */
  maxResponseBytes: number;
}

/** What one attempt did, for the operation log and the upstream-call budget. */
export interface UpstreamAttempt {
  method: UpstreamMethod;
  path: string;
  status: number | null;
  durationMs: number;
}

/** Why a GET is tried again. */
export type RetryReason = 'rate_limited' | 'upstream_5xx' | 'transport';

/** How one attempt ended: its status, or the code of the error it failed with. */
export interface AttemptOutcome {
  status: number | null;
  /** The `extensions.code` of the failure; null when the upstream answered 2xx/3xx. */
  errorCode: string | null;
  durationMs: number;
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
}

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
  /** Called once before each call (not each retry); throwing refuses it (the upstream-call budget). */
  beforeCall?: (call: UpstreamCall) => void;
  onAttempt?: (attempt: UpstreamAttempt) => void;
}

/** An upstream client bound to one GraphQL request: its caller's key, deadline and signal. */
export interface CallerUpstream {
  request(call: UpstreamCall): Promise<UpstreamResponse>;
}

const BACKOFF_BASE_MS = 100;
const BACKOFF_JITTER_MS = 100;
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
const USER_AGENT = 'destinations-graphql-gateway/0.1';

/** The abort reason when a GraphQL request's deadline passes. */
export class RequestDeadline extends Error {
  override name = 'RequestDeadline';
}

/** The abort reason when the client of a GraphQL request goes away. */
export class ClientGone extends Error {
  override name = 'ClientGone';
}

/** Why nothing more may start for this caller, as the error a field gets; null while it may. */
function stopped(caller: CallerOptions): GraphQLError | null {
  if (caller.signal.aborted) {
    return caller.signal.reason instanceof RequestDeadline
      ? upstreamTimeout('the request deadline')
      : transportError(caller.signal.reason, false);
  }
  return Date.now() >= caller.deadline ? upstreamTimeout('the request deadline') : null;
}

/**
 * The one abort signal of a GraphQL request, as the EventEmitter that undici also accepts as a
 * `signal`: undici adds and removes an abort listener for every call, which on an AbortSignal
 * (an EventTarget) cost more than parsing a small answer; on an EventEmitter it is cheap, and
 * no AbortController is made per request (npm run bench).
 */
export class RequestSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  constructor() {
    super();
    // One listener per upstream call in flight.
    this.setMaxListeners(0);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

const sleep = (ms: number, signal: RequestSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.once('abort', done);
    function done() {
      clearTimeout(timer);
      signal.off('abort', done);
      resolve();
    }
  });

/**
 * A Retry-After's wait is held between 1 second and an hour: a date in the past (or 0) must not
 * retry at once, over and over, and 99,999,999 seconds overflowed setTimeout, which then fired
 * after 1 ms (a poller made ~600 GETs a second). PostHog's longest window is the hour.
 */
export const RETRY_AFTER_SECONDS = { min: 1, max: 3_600 } as const;

function retryAfterSeconds(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  const at = /^\d+$/.test(trimmed) ? Date.now() + Number(trimmed) * 1000 : Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  const seconds = Math.ceil((at - Date.now()) / 1000);
  return Math.min(RETRY_AFTER_SECONDS.max, Math.max(RETRY_AFTER_SECONDS.min, seconds));
}

function queryString(query: UpstreamCall['query']): string {
  let text = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    text += `${text ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return text;
}

class AttemptFailure {
  constructor(
    readonly error: GraphQLError,
    readonly retryable: boolean,
    readonly waitMs: number | null = null,
  ) {}

  get retryReason(): RetryReason {
    const status = (this.error.extensions.upstream as { status?: number } | undefined)?.status;
    if (status === 429) return 'rate_limited';
    return status === undefined ? 'transport' : 'upstream_5xx';
  }
}

export class UpstreamClient {
  private readonly pool: Pool;
  /** Who gets a free connection: the oldest operation waiting (oldest-first.ts). */
  private readonly gate: OldestFirstGate;
  /** Callers bound so far: each caller's place in line for connections. */
  private callersBound = 0;

  constructor(private readonly options: UpstreamClientOptions) {
    this.pool = new Pool(options.origin, {
      connections: options.maxConnections,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
    });
    this.gate = new OldestFirstGate(options.maxConnections);
  }

  /** Calls for one round of a GraphQL request's work; its calls go before those of later ones. */
  forCaller(caller: CallerOptions): CallerUpstream {
    const order = this.callersBound++;
    return { request: (call) => this.request(call, caller, order) };
  }

  private async request(call: UpstreamCall, caller: CallerOptions, order: number): Promise<UpstreamResponse> {
    if (!caller.authorization) throw missingAuthorization();
    const before = stopped(caller);
    if (before) throw before;
    caller.beforeCall?.(call);
    const attempts = call.method === 'GET' ? 1 + this.options.retries : 1;
    let last: AttemptFailure | null = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (last) {
        const backoff =
          last.waitMs ?? BACKOFF_BASE_MS * 2 ** (attempt - 1) + Math.random() * BACKOFF_JITTER_MS;
        if (Date.now() + backoff >= caller.deadline) break;
        caller.observer?.retrying(call, last.retryReason, backoff);
        await sleep(backoff, caller.signal);
        // A wait ends early when the request is aborted; what was learnt before it stands.
        if (stopped(caller)) break;
      }
      const slot = this.gate.enter(order, caller.signal);
      if (slot !== true) {
        // Aborted while waiting for a connection, or past the deadline once one came: not sent.
        if (!(await slot)) break;
        if (stopped(caller)) {
          this.gate.leave();
          break;
        }
      }
      let outcome: UpstreamResponse | AttemptFailure;
      try {
        outcome = await this.attempt(call, caller, attempt + 1);
      } finally {
        this.gate.leave();
      }
      if (!(outcome instanceof AttemptFailure)) return outcome;
      last = outcome;
      if (!outcome.retryable) break;
    }
    throw last?.error ?? stopped(caller)!;
  }

  private async attempt(
    call: UpstreamCall,
    caller: CallerOptions,
    attemptNumber: number,
  ): Promise<UpstreamResponse | AttemptFailure> {
    const observation = caller.observer?.attemptStarted(call, attemptNumber);
    const headers: Record<string, string> = {
      ...observation?.headers,
      authorization: caller.authorization!,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (caller.requestId) headers['x-request-id'] = caller.requestId;
    let body: string | undefined;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    }
    const remaining = caller.deadline - Date.now();
    const started = performance.now();
    let status: number | null = null;
    let errorCode: string | null = null;
    try {
      const response = await requestOn(this.pool, {
        path: `${call.path}${queryString(call.query)}`,
        method: call.method,
        headers,
        body,
        signal: caller.signal,
        headersTimeout: Math.min(this.options.headersTimeoutMs, Math.max(1, remaining)),
        bodyTimeout: this.options.bodyTimeoutMs,
      });
      status = response.statusCode;
      const chunks = await readChunks(
        response.body,
        response.headers['content-length'],
        this.options.maxResponseBytes,
      );
      const contentType = String(response.headers['content-type'] ?? '');
      if (status >= 400) {
        const text = decodeUtf8(chunks);
        const failure = this.statusFailure(call, status, text, response.headers['retry-after'], caller);
        errorCode = failure.error.extensions.code as string;
        return failure;
      }
      const parsed = call.parseAnswer === false ? null : parseBody(decodeUtf8(chunks), contentType);
      return { status, contentType, body: parsed, chunks };
    } catch (error) {
      if (error instanceof AttemptFailure) {
        errorCode = error.error.extensions.code as string;
        return error;
      }
      const deadlineHit =
        caller.signal.reason instanceof RequestDeadline || Date.now() >= caller.deadline - 1;
      const retryable = call.method === 'GET' && status === null && isRetryableTransportError(error);
      const failure = transportError(error, deadlineHit);
      // A write cut after it may have reached the upstream may have been applied.
      const unknown = call.method !== 'GET' && (deadlineHit || mayHaveReachedUpstream(error));
      errorCode = failure.extensions.code as string;
      return new AttemptFailure(unknown ? unknownWriteOutcome(failure) : failure, retryable);
    } finally {
      const durationMs = performance.now() - started;
      caller.onAttempt?.({ method: call.method, path: call.path, status, durationMs });
      observation?.finished({ status, errorCode, durationMs });
    }
  }

  private statusFailure(
    call: UpstreamCall,
    status: number,
    text: string,
    retryAfterHeader: string | string[] | undefined,
    caller: CallerOptions,
  ): AttemptFailure {
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const retryAfter = retryAfterSeconds(retryAfterHeader);
    const error = upstreamStatusError(status, parsed, retryAfter);
    // A 4xx write was refused; after a 5xx nobody can say what the upstream did.
    if (call.method !== 'GET')
      return new AttemptFailure(status >= 500 ? unknownWriteOutcome(error) : error, false);
    if (status === 429) {
      // Wait out the rate limit only when the wait fits in the request's deadline.
      const fits = retryAfter !== null && Date.now() + retryAfter * 1000 < caller.deadline;
      return new AttemptFailure(error, fits, fits ? retryAfter! * 1000 : null);
    }
    return new AttemptFailure(error, RETRYABLE_STATUSES.has(status));
  }

  /** The pool's sockets and queue, for metrics. */
  poolStats(): { connected: number; queued: number; running: number } {
    const { connected, queued, running } = this.pool.stats;
    return { connected, queued: queued + this.gate.queued, running };
  }

  /**
   * Readiness: does the upstream answer at all? One unauthenticated GET of the project list,
   * which a live upstream refuses with 401 at once; any status below 500 within `timeoutMs` counts.
   */
  async probe(timeoutMs: number): Promise<{ ok: boolean; reason: string }> {
    try {
      const response = await requestOn(this.pool, {
        path: '/api/projects/',
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': USER_AGENT },
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await response.body.dump();
      return response.statusCode < 500
        ? { ok: true, reason: 'upstream answers' }
        : { ok: false, reason: `upstream answered ${response.statusCode}` };
    } catch (error) {
      const code = (error as { code?: string; name?: string }).code ?? (error as Error).name;
      return { ok: false, reason: `upstream unreachable (${code})` };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
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
