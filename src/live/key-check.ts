// Live work holds a slot only for a key PostHog has accepted. A key not accepted lately
// (upstream/keys/standing.ts) is checked first with one cheap call, GET /api/projects/@current/,
// whatever the operation would read (`query @live { __typename }` reads nothing, and would
// otherwise hold its slot forever): a 2xx, 402, 403 or 404 shows PostHog knows the key (a 403 is
// a scope the key lacks, not a key PostHog does not know); a 401 refuses the live work, and the
// key is remembered as refused; a transient failure (a timeout, a 5xx, a 429) refuses it too, with
// that error, since nothing shows the key is real yet. Checks of one key are one call; checks under way at once, all
// keys together, are bounded (MAX_UNVERIFIED_CHECKS), so keys nobody issued cannot queue calls
// without bound.
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../core/caller-key.ts';
import { codedError } from '../errors/codes.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { PATHS } from '../upstream/posthog/paths.ts';
import { RequestSignal } from '../upstream/request-signal.ts';

/** The refusals that still show PostHog knows the key. */
const KNOWN_CODES: ReadonlySet<unknown> = new Set(['FORBIDDEN', 'NOT_FOUND', 'PAYMENT_REQUIRED']);

const tooManyChecks = (max: number) =>
  codedError(
    'CONCURRENCY_LIMITED',
    `${max} keys PostHog has not accepted yet are being checked before their live work starts: try again in a few seconds.`,
  );

export class KeyCheck {
  private readonly checking = new Map<KeyHash, Promise<void>>();

  constructor(
    private readonly client: UpstreamClient,
    private readonly maxChecks: number,
    private readonly deadlineMs: number,
  ) {}

  /** Resolves once PostHog is known to accept the key; throws a coded error when it may not start. */
  async check(authorization: string, key: KeyHash): Promise<void> {
    const standing = await this.client.keyStanding.standingOf(key);
    if (standing === 'accepted') return;
    let checking = this.checking.get(key);
    if (!checking) {
      if (this.checking.size >= this.maxChecks) throw tooManyChecks(this.maxChecks);
      checking = this.callWith(authorization, key).finally(() => this.checking.delete(key));
      this.checking.set(key, checking);
    }
    return checking;
  }

  private async callWith(authorization: string, key: KeyHash): Promise<void> {
    const signal = new RequestSignal();
    const upstream = this.client.forCaller({ authorization, signal, deadline: Date.now() + this.deadlineMs });
    try {
      await upstream.request({ method: 'GET', path: PATHS.project('@current') });
    } catch (error) {
      const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
      if (!KNOWN_CODES.has(code)) throw error;
      this.client.keyStanding.noteAccepted(key);
    }
  }
}
