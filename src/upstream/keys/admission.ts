// Whether an upstream call may go, by what PostHog said of its key (key-standing.ts):
// - a key accepted lately: at once (nothing awaited);
// - a key refused lately: UNAUTHENTICATED at once, unsent, saying to check the key;
// - any other key: its first call goes alone, and the key's other calls (of every request) wait
//   for its first answer: a 401 refuses them all unsent, any other status lets them go at once
//   (before any retry of it), and a call that got no answer (cut, aborted, refused by a budget)
//   hands the turn to the next.
// Within one round of a request's work (a GraphQL request, a subscription's poll), the calls after
// a 401 fail with that 401's own error.
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../../core/caller-key.ts';
import { codedError } from '../../errors/codes.ts';
import { AttemptFailure } from '../attempt.ts';
import type { UpstreamResponse } from '../call.ts';
import type { AbortSource } from '../oldest-first.ts';
import type { RememberedStandings } from './standing.ts';

/** What one round of a request's calls learnt of its key. */
export interface RoundStanding {
  /** The 401 one of its calls got: the round's later calls fail with it. */
  refusal: GraphQLError | null;
  /** The round's one look at the shared memory, for a key not accepted here. */
  asked: Promise<unknown> | null;
}

export const newRound = (): RoundStanding => ({ refusal: null, asked: null });

/** How a key's first call ended. */
export type Heard = 'refused' | 'answered' | 'unanswered';

/** The key's first call: `heard` notes each attempt's status, and the caller settles it once it ends. */
export interface FirstCall {
  /** The status its latest attempt was answered with; null: none was answered. */
  status: number | null;
  settle(): void;
}

/** A call of a key PostHog refused lately: not sent. */
export const keyRefused = () =>
  codedError(
    'UNAUTHENTICATED',
    'This API key was refused by PostHog moments ago (401), so no call was made with it. Check the key: it must be a personal API key of this PostHog, sent in the Authorization header.',
    { recentlyRefused: true },
  );

const again = (refusal: GraphQLError) =>
  new GraphQLError(refusal.message, { extensions: refusal.extensions });

const heardOf = (status: number | null): Heard =>
  status === 401 ? 'refused' : status === null ? 'unanswered' : 'answered';

/** The status an attempt was answered with; null when it was not (cut, refused unsent). */
const statusOf = (outcome: UpstreamResponse | AttemptFailure): number | null =>
  outcome instanceof AttemptFailure
    ? ((outcome.error.extensions.upstream as { status?: number } | undefined)?.status ?? null)
    : outcome.status;

export class KeyAdmission {
  /** Keys whose first call is in flight: what their other calls wait for. */
  private readonly firstCalls = new Map<KeyHash, Promise<Heard>>();

  constructor(private readonly standing: RememberedStandings) {}

  /**
   * null: the call may go; a FirstCall: it goes as its key's first call (settle it when it ends);
   * throws (or rejects with) UNAUTHENTICATED when the key is refused. An abort, or `deadline`,
   * while waiting ends the wait with null: the caller's own check says why nothing is sent.
   */
  clear(
    key: KeyHash,
    round: RoundStanding,
    signal: AbortSource,
    deadline: number,
  ): null | Promise<FirstCall | null> {
    if (round.refusal) throw again(round.refusal);
    if (this.standing.standingHere(key) === 'accepted') return null;
    round.asked ??= Promise.resolve(this.standing.standingOf(key));
    return round.asked.then(() => this.takeTurn(key, round, signal, deadline));
  }

  /** What an attempt heard upstream is remembered of its key, its round and its first call. */
  heard(
    key: KeyHash,
    outcome: UpstreamResponse | AttemptFailure,
    round: RoundStanding,
    first: FirstCall | null,
  ): void {
    const status = statusOf(outcome);
    if (first) first.status = status;
    // Any answer but a 401 shows PostHog knows the key: its other calls go now, not after retries.
    if (first && status !== null && status !== 401) first.settle();
    if (status === 401) {
      this.standing.noteRefused(key);
      round.refusal ??= (outcome as AttemptFailure).error;
    } else if (status !== null && status >= 200 && status < 300) this.standing.noteAccepted(key);
  }

  private async takeTurn(
    key: KeyHash,
    round: RoundStanding,
    signal: AbortSource,
    deadline: number,
  ): Promise<FirstCall | null> {
    for (;;) {
      if (round.refusal) throw again(round.refusal);
      const standing = this.standing.standingHere(key);
      if (standing === 'refused') throw keyRefused();
      if (standing === 'accepted' || signal.aborted || Date.now() >= deadline) return null;
      const first = this.firstCalls.get(key);
      if (!first) return this.openFirstCall(key);
      const heard = await untilStopped(first, signal, deadline);
      if (heard === 'answered') return null;
    }
  }

  private openFirstCall(key: KeyHash): FirstCall {
    let settle!: (heard: Heard) => void;
    const heard = new Promise<Heard>((resolve) => {
      settle = resolve;
    });
    this.firstCalls.set(key, heard);
    const firstCalls = this.firstCalls;
    return {
      status: null,
      settle() {
        if (firstCalls.get(key) === heard) firstCalls.delete(key);
        settle(heardOf(this.status));
      },
    };
  }
}

/** `heard`, or 'unanswered' as soon as `signal` aborts or `deadline` passes. */
function untilStopped(heard: Promise<Heard>, signal: AbortSource, deadline: number): Promise<Heard> {
  return new Promise<Heard>((resolve) => {
    const end = (value: Heard) => {
      clearTimeout(timer);
      signal.off('abort', stop);
      resolve(value);
    };
    const stop = () => end('unanswered');
    const timer = setTimeout(stop, Math.max(0, deadline - Date.now()));
    timer.unref();
    signal.on('abort', stop);
    void heard.then(end);
  });
}
