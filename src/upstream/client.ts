// The only code that speaks HTTP to the REST upstream, over HTTP/2 when it offers it, else
// HTTP/1.1 (connections.ts). At most maxInFlight calls at once; calls beyond them wait, the oldest
// operation's first (oldest-first.ts). Every request:
// - carries the caller's Authorization header exactly as received, to the configured origin only;
// - runs under the GraphQL request's one abort signal, which fires at its deadline or when its
//   client goes away: after that no call, retry or wait starts, and calls in flight are cut;
// - always consumes the response body, so the socket goes back to the pool;
// - is retried as retry.ts says (only GETs; writes are sent exactly once, and when one fails
//   after it may have reached the upstream, the error says its outcome is unknown);
// - counts against its key's upstream budget (keys/budget.ts) before it is sent;
// - goes only as what PostHog said of its key lately allows (keys/admission.ts): none of a key it
//   refused, and those of keys it has not accepted within their share of the pool
//   (unverified-share.ts);
// - is made by attempt.ts; this file is the loop around attempts and the client's lifetime. The
//   keyless probes of readiness and routing are probes.ts's.
import { collectionOfScope } from '../core/activity-scopes.ts';
import { hashKey, type KeyHash } from '../core/caller-key.ts';
import { missingAuthorization } from '../errors/codes.ts';
import { AttemptFailure, type AttemptSettings, attempt, stopped } from './attempt.ts';
import type { CallerOptions, CallerUpstream, UpstreamCall, UpstreamResponse } from './call.ts';
import { UpstreamConnections } from './connections.ts';
import { KeptAnswers, type KeptAnswersOptions } from './kept/answers.ts';
import type { Shelf } from './kept/shelf.ts';
import { type FirstCall, KeyAdmission, newRound, type RoundStanding } from './keys/admission.ts';
import type { Counted, KeyBudget } from './keys/budget.ts';
import { type BudgetLeft, type FewestLeft, fewestRecent } from './keys/budget-left.ts';
import { KeyStandingHere, type RememberedStandings } from './keys/standing.ts';
import { CallSlots } from './keys/unverified-share.ts';
import { OldestFirstGate } from './oldest-first.ts';
import { probe, routes } from './probes.ts';
import { sleep } from './request-signal.ts';
import { backoffMs, isRetryableMethod } from './retry.ts';

export interface UpstreamClientOptions extends Partial<KeptAnswersOptions> {
  origin: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  retries: number;
  /** Calls in flight at once, over either protocol. */
  maxInFlight: number;
  /** Connections at most; null: as many as the calls in flight need (connections.ts). */
  maxConnections: number | null;
  /** Offer HTTP/2 to an https:// upstream. */
  http2: boolean;
  /** PEM certificates trusted for the upstream beside Node's own roots. */
  ca: string | null;
  /** A larger answer is refused as malformed (UPSTREAM_UNAVAILABLE), as soon as it is seen. */
  maxResponseBytes: number;
  /** The longest wait a 429's Retry-After may ask (MAX_RETRY_AFTER_MS); 5 minutes when not given. */
  maxRetryAfterMs?: number;
  /** Each key's upstream budget (keys/budget.ts); null or off: none. */
  budget?: KeyBudget | null;
  /** Calls in flight at once of keys not accepted lately; null: maxInFlight / 8 (at least 1). */
  unverifiedMaxInFlight?: number | null;
  /** What PostHog said of each key lately; this process's own memory when not given. */
  standing?: RememberedStandings;
  /** Where kept answers are held (kept/shelf.ts); this process's memory when not given. */
  shelf?: Shelf;
}

export class UpstreamClient {
  private readonly connections: UpstreamConnections;
  /** Who gets a free slot: the oldest operation waiting (oldest-first.ts). */
  private readonly gate: OldestFirstGate;
  /** The gate, with the share of it keys not accepted may hold (unverified-share.ts). */
  private readonly slots: CallSlots;
  /** What PostHog said of each key lately (keys/standing.ts): live work reads it too. */
  readonly keyStanding: RememberedStandings;
  private readonly admission: KeyAdmission;
  /** GET answers kept a short while (kept/answers.ts); null: none kept. */
  private readonly answers: KeptAnswers | null;
  /** Callers bound so far: each caller's place in line for connections. */
  private callersBound = 0;

  private readonly settings: AttemptSettings;

  constructor(private readonly options: UpstreamClientOptions) {
    this.connections = new UpstreamConnections(options);
    this.gate = new OldestFirstGate(this.connections.slots);
    this.connections.onSlots = (slots) => this.gate.resize(slots);
    const standing = options.standing ?? new KeyStandingHere();
    this.keyStanding = standing;
    this.admission = new KeyAdmission(standing);
    const { maxInFlight, unverifiedMaxInFlight } = options;
    const share = Math.min(maxInFlight, unverifiedMaxInFlight ?? Math.max(1, Math.floor(maxInFlight / 8)));
    const isAccepted = (key: KeyHash) => standing.standingHere(key) === 'accepted';
    this.slots = new CallSlots(this.gate, new OldestFirstGate(share), isAccepted);
    const { headersTimeoutMs, bodyTimeoutMs, maxResponseBytes, maxRetryAfterMs } = options;
    const connections = this.connections;
    this.settings = { connections, headersTimeoutMs, bodyTimeoutMs, maxResponseBytes, maxRetryAfterMs };
    const { cacheTtlMs = 0, cacheStaleMs = 0, cacheMaxBytes = 0 } = options;
    this.answers = KeptAnswers.of({ cacheTtlMs, cacheStaleMs, cacheMaxBytes }, options.shelf);
  }

  /**
   * The activity log showed a change of `scope` (PostHog's name of what changed) to `projectId`:
   * no kept answer of that resource answers again (of the whole project, for a scope not known).
   */
  changedUpstream(projectId: string, scope: string | null): void {
    this.answers?.changed(projectId, collectionOfScope(scope));
  }

  /** What is left of `key`'s budget in each window, read without spending; null: no budget. */
  budgetLeft(key: KeyHash): Promise<BudgetLeft | null> {
    return this.options.budget?.left(key) ?? Promise.resolve(null);
  }

  /** Per window, the fewest calls any key had left as last read (metrics); null: no budget. */
  budgetFewestLeft(): FewestLeft | null {
    const budget = this.options.budget;
    return budget && !budget.off ? fewestRecent(budget.keys.values(), Date.now()) : null;
  }

  /** How many times its setting a poller of `key` waits now (keys/priorities.ts); 1: no budget. */
  pollerSlowdown(key: KeyHash): Promise<number> {
    return this.options.budget?.pollerSlowdown(key) ?? Promise.resolve(1);
  }

  /** Calls for one round of a GraphQL request's work; its calls go before those of later ones. */
  forCaller(caller: CallerOptions): CallerUpstream {
    const order = this.callersBound++;
    // Hashed once per round.
    let key: KeyHash | null = null;
    const keyOf = () => (key ??= hashKey(caller.authorization!));
    const round = newRound();
    const refused = () => this.keyStanding.standingHere(keyOf()) === 'refused';
    return {
      request: (call) => {
        const send = () => this.request(call, caller, order, keyOf, round);
        return this.answers && caller.authorization
          ? this.answers.through(call, caller, keyOf, send, refused)
          : send();
      },
      keyHash: () => (caller.authorization ? keyOf() : null),
    };
  }

  private async request(
    call: UpstreamCall,
    caller: CallerOptions,
    order: number,
    keyOf: () => KeyHash,
    round: RoundStanding,
  ): Promise<UpstreamResponse> {
    if (!caller.authorization) throw missingAuthorization();
    const before = stopped(caller);
    if (before) throw before;
    // A refused key's call fails here, unsent; a key's first call goes before its others.
    const cleared = this.admission.clear(keyOf(), round, caller.signal, caller.deadline);
    const first = cleared === null ? null : await cleared;
    try {
      const waited = stopped(caller);
      if (waited) throw waited;
      caller.beforeCall?.(call);
      return await this.send(call, caller, order, keyOf, round, first);
    } finally {
      first?.settle();
    }
  }

  /** The call's attempts (retries as retry.ts says), each within the budget and the pool. */
  private async send(
    call: UpstreamCall,
    caller: CallerOptions,
    order: number,
    keyOf: () => KeyHash,
    round: RoundStanding,
    first: FirstCall | null,
  ): Promise<UpstreamResponse> {
    const attempts = isRetryableMethod(call.method) ? 1 + this.options.retries : 1;
    let last: AttemptFailure | null = null;
    for (let number = 0; number < attempts; number++) {
      if (last) {
        const backoff = last.waitMs ?? backoffMs(number);
        if (Date.now() + backoff >= caller.deadline) break;
        caller.observer?.retrying(call, last.retryReason, backoff);
        await sleep(backoff, caller.signal);
        // A wait ends early when the request is aborted; what was learnt before it stands.
        if (stopped(caller)) break;
      }
      const budget = this.options.budget;
      let counted: Counted | undefined;
      if (budget && !budget.off) {
        // Over the key's budget: wait for room within the deadline, or RATE_LIMITED unsent.
        const admitted = budget.admit(keyOf(), caller.deadline, caller.signal, caller.priority);
        counted = admitted instanceof Promise ? await admitted : admitted;
        if (stopped(caller)) {
          this.unsent(keyOf, counted);
          break;
        }
      }
      const entered = this.slots.enter(keyOf(), order, caller.signal);
      const held = typeof entered === 'string' ? entered : await entered;
      // Aborted while waiting for a connection, or past the deadline once one came: not sent.
      if (held === null || (entered !== held && stopped(caller))) {
        if (held) this.slots.leave(held);
        this.unsent(keyOf, counted);
        break;
      }
      let outcome: UpstreamResponse | AttemptFailure;
      try {
        outcome = await attempt(this.settings, call, caller, number + 1);
      } finally {
        this.slots.leave(held);
      }
      this.admission.heard(keyOf(), outcome, round, first);
      if (!(outcome instanceof AttemptFailure)) return outcome;
      last = outcome;
      // A 429 says the key is over PostHog's count: no call of it for its Retry-After, anywhere.
      const retryAfter = Number(outcome.error.extensions?.retryAfter);
      if (budget && outcome.error.extensions?.code === 'RATE_LIMITED' && retryAfter > 0)
        budget.pause(keyOf(), retryAfter * 1000);
      if (!outcome.retryable) break;
    }
    throw last?.error ?? stopped(caller)!;
  }

  /** A call the budget counted and that never went: the budget has it back. */
  private unsent(keyOf: () => KeyHash, counted: Counted | undefined): void {
    if (counted !== undefined) this.options.budget!.refund(keyOf(), counted);
  }

  /** The connections and the calls queued, for metrics. */
  poolStats(): { connected: number; queued: number; running: number } {
    const { connected, queued, running } = this.connections.stats();
    return { connected, queued: queued + this.slots.queued, running };
  }

  /** What the upstream speaks, once a connection has said (null before). */
  get protocol(): 'http/1.1' | 'h2' | null {
    return this.connections.protocol;
  }

  /** Readiness: does the upstream answer at all (probes.ts)? */
  probe(timeoutMs: number): Promise<{ ok: boolean; reason: string }> {
    return probe(this.connections.pool, timeoutMs);
  }

  /** Whether the upstream routes `path` at all, asked without a key (probes.ts); null: unknown. */
  routes(path: string, timeoutMs: number): Promise<boolean | null> {
    return routes(this.connections.pool, path, timeoutMs);
  }

  close(): Promise<void> {
    return this.connections.close();
  }
}
