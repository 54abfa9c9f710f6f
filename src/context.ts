// The per-request context: the caller's key, fresh loaders over an upstream client bound to it
// (one abort signal, the deadline, call accounting); the client itself is not exposed. Nothing in it outlives the GraphQL request.
import type { ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { authorizationOf } from './core/caller-key.ts';
import { RouteWarnings } from './errors/answer-warnings.ts';
import { StaleAnswers } from './errors/stale-answers.ts';
import { upstreamTooLarge } from './limits/too-complex.ts';
import type { LiveServices } from './live/services.ts';
import { createLoaders, type KeptAcrossRequests, type Loaders } from './loaders/index.ts';
import { requestIdOf } from './observability/request-id.ts';
import type { UpstreamAttempt, UpstreamObserver } from './upstream/call.ts';
import type { UpstreamClient } from './upstream/client.ts';
import type { CallPriority } from './upstream/keys/priorities.ts';
import { PATHS, routeTemplate } from './upstream/posthog/paths.ts';
import { ANSWERED, ClientGone, RequestDeadline, RequestSignal } from './upstream/request-signal.ts';

export interface UpstreamCallLog {
  /** Calls started (a retried call counts once). */
  calls: number;
  attempts: UpstreamAttempt[];
}

export interface GatewayContext {
  /** x-request-id of the answer (request-id.ts). */
  requestId: string;
  /** The caller's Authorization header exactly as received; null when absent or blank (core/caller-key.ts). */
  authorization: string | null;
  /** The request's data API: the only way a resolver reaches the upstream. */
  loaders: Loaders;
  calls: UpstreamCallLog;
  /**
   * Errors about part of a field that still answers (a kind of destination the key may not read,
   * beside the kinds it may): added to the answer's `errors` by usePartialErrors, with their path.
   */
  partialErrors: GraphQLError[];
  /** A route PostHog marks as going (Deprecation, Sunset): `extensions.warnings`, once per route. */
  routeWarnings: RouteWarnings;
  /** Answers kept earlier that served because PostHog could not answer: `extensions.stale`. */
  staleAnswers: StaleAnswers;
  /** Subscriptions and live queries; null where they are not served. */
  live: LiveServices | null;
  /**
   * A fresh round of work for a long-lived operation (each subscription event, each live
   * re-run): new loaders (nothing cached from the last round), a new call budget and deadline;
   * its calls of `priority` in the key's budget (a live re-run's: poller).
   */
  renew(priority?: CallPriority): void;
  /** The long-lived operation ended. */
  end(): void;
}

export interface ContextDeps {
  client: UpstreamClient;
  requestDeadlineMs: number;
  /**
   * The most upstream calls one GraphQL request may make. schema/cost/estimate.ts prices operations (the limits plugin refuses those)
   * that could exceed it before they run; this is the backstop should an estimate be low.
   */
  maxUpstreamCalls: number;
  /** What sees this request's upstream attempts (metrics, its trace); none when all are off. */
  observe?: (request: Request, requestId: string) => UpstreamObserver | undefined;
  live?: LiveServices;
  /** The gateway's, shared by its requests: what loaders keep under a key's hash. */
  kept: KeptAcrossRequests;
}

/** What node's HTTP server hands yoga besides the request (absent when called through fetch). */
export interface NodeServerContext {
  /** Its `close` before the answer is finished means the client went away. */
  res?: ServerResponse;
}

/**
 * One signal for all the upstream work of a GraphQL request: aborted with a RequestDeadline when
 * the deadline passes and with a ClientGone when the client disconnects. (The request's own
 * signal from @whatwg-node/server is not used for this: it stops firing once AbortSignal.any()
 * has been called on it, so retries and waits went on for a caller long gone.)
 *
 * A long-lived operation (a subscription's events, a live query's re-runs) renews it for each
 * round of work: a fresh deadline each time, the same client.
 */
class RequestLifetime {
  signal = new RequestSignal();
  private deadline: NodeJS.Timeout;
  private gone = false;

  constructor(private readonly deadlineMs: number) {
    this.deadline = this.startDeadline();
  }

  /** Stops watching the client (end() calls it: an ended lifetime holds no listener). */
  private unwatch: (() => void) | null = null;

  /** The client going away (or answered) ends this lifetime. */
  endWithClient(request: Request, server: NodeServerContext): void {
    const clientGone = () => {
      this.gone = true;
      clearTimeout(this.deadline);
      this.signal.abort(new ClientGone('client gone'));
    };
    const { res } = server;
    if (res) {
      // Answered (or gone): nothing the request started may go on after its answer.
      const onClose = () => (res.writableFinished ? this.end() : clientGone());
      res.once('close', onClose);
      this.unwatch = () => res.off('close', onClose);
    } else {
      request.signal.addEventListener('abort', clientGone, { once: true });
      this.unwatch = () => request.signal.removeEventListener('abort', clientGone);
    }
  }

  private startDeadline(): NodeJS.Timeout {
    const signal = this.signal;
    const timer = setTimeout(() => signal.abort(new RequestDeadline('deadline')), this.deadlineMs);
    timer.unref();
    return timer;
  }

  renew(): void {
    clearTimeout(this.deadline);
    this.signal = new RequestSignal();
    if (this.gone) this.signal.abort(new ClientGone('client gone'));
    else this.deadline = this.startDeadline();
  }

  /**
   * The request is answered (a long-lived one ended): no timer is left behind, and what it still
   * has in flight (retries, budget waits, reads of a field that already failed) is cancelled.
   */
  end(): void {
    clearTimeout(this.deadline);
    this.unwatch?.();
    this.unwatch = null;
    this.signal.abort(ANSWERED);
  }
}

export function createContext(
  deps: ContextDeps,
  request: Request,
  server: NodeServerContext = {},
): GatewayContext {
  const lifetime = new RequestLifetime(deps.requestDeadlineMs);
  lifetime.endWithClient(request, server);
  return contextOf(deps, request, lifetime);
}

const SELF_READ_PATH = PATHS.personalApiKeyCurrent();

function contextOf(deps: ContextDeps, request: Request, lifetime: RequestLifetime): GatewayContext {
  const authorization = authorizationOf(request.headers.get('authorization'));
  const requestId = requestIdOf(request);
  const observer = deps.observe?.(request, requestId);

  /** The upstream client, loaders and call budget of one round of work. */
  const round = (priority: CallPriority = 'interactive') => {
    const calls: UpstreamCallLog = { calls: 0, attempts: [] };
    const routeWarnings = new RouteWarnings();
    const staleAnswers = new StaleAnswers();
    // The key's self-read (loaders/key-grants.ts) is the gateway's call, not the operation's: it
    // counts in `calls` but not against MAX_UPSTREAM_CALLS, which the operation was priced against.
    let selfReads = 0;
    const upstream = deps.client.forCaller({
      authorization,
      requestId,
      observer,
      signal: lifetime.signal,
      deadline: Date.now() + deps.requestDeadlineMs,
      priority,
      beforeCall: (call) => {
        if (call.path === SELF_READ_PATH) selfReads++;
        else if (calls.calls - selfReads >= deps.maxUpstreamCalls) {
          throw upstreamTooLarge(calls.calls - selfReads + 1, deps.maxUpstreamCalls);
        }
        calls.calls++;
      },
      onAttempt: (attempt) => {
        calls.attempts.push(attempt);
        if (attempt.deprecation) routeWarnings.add(routeTemplate(attempt.path), attempt.deprecation);
        // A write that went through wakes the live work of this key on that project.
        if (attempt.method !== 'GET' && attempt.status !== null && attempt.status < 400 && authorization) {
          deps.live?.wake.written(authorization, attempt.path);
        }
      },
      onStale: ({ path, ageSeconds }) => staleAnswers.add(routeTemplate(path), ageSeconds),
      onKeptDeprecation: (path, deprecation) => routeWarnings.add(routeTemplate(path), deprecation),
    });
    const partialErrors: GraphQLError[] = [];
    return { loaders: createLoaders(upstream, deps.kept), calls, partialErrors, routeWarnings, staleAnswers };
  };

  return {
    requestId,
    authorization,
    live: deps.live ?? null,
    ...round(),
    // `this`: yoga hands resolvers a copy of this object (merged with its own context), and
    // the round must be renewed where the resolvers read it.
    renew(this: GatewayContext, priority?: CallPriority) {
      lifetime.renew();
      Object.assign(this, round(priority));
    },
    end() {
      lifetime.end();
    },
  };
}
