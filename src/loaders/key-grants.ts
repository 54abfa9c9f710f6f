// The caller's key as PostHog answers it to the key itself (GET /api/personal_api_keys/@current/,
// posthog/api/personal_api_key.py): what the schema's scope gate (schema/scope-gate.ts) and
// `viewer` read, so that a field the key may not read fails before its call. Read once per key
// (one read in flight per key in this process), kept as upstream/keys/grants.ts says; a 403 or 404
// to the read (an OAuth token, an upstream without the route) is remembered as `unreadable`, and
// the key's calls then go as without any of this. A 401 is not remembered here: the key's refusal
// is (upstream/keys/standing.ts, bounded), so invented keys do not fill this memory; `viewer`
// answers it as UNAUTHENTICATED, the error every call of the key then gets.
import { GraphQLError } from 'graphql';
import type { KeyHash } from '../core/caller-key.ts';
import { mapMaybePromise } from '../core/maybe-promise.ts';
import type { CallerUpstream } from '../upstream/call.ts';
import { ExpiringKeys } from '../upstream/keys/expiring-keys.ts';
import {
  grantOf,
  grants,
  type KeyGrant,
  type KeyGrants,
  type KnownGrant,
  MAX_GRANTS,
} from '../upstream/keys/grants.ts';
import { PATHS } from '../upstream/posthog/paths.ts';

/** Whether a grant holds a scope (the schema's gate asks it: upstream/keys/grants.ts). */
export { grants } from '../upstream/keys/grants.ts';

import type { UpstreamFeatures } from './upstream-features.ts';

const CURRENT_KEY_PATH = PATHS.personalApiKeyCurrent();

/** What a read of a key said: its grant, null (not known), or PostHog's refusal of the key (401). */
type ReadAnswer = KeyGrant | null | GraphQLError;

const isUnauthenticated = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError && error.extensions.code === 'UNAUTHENTICATED';

/**
 * A key's grant is read again after a 403 it did not explain at most once per this share of
 * KEY_SCOPES_REFRESH_MS in each process, however many such 403s its calls get.
 */
export const REREAD_SHARE = 10;

/** Kept per gateway: the memory of grants (null: KEY_SCOPES_REFRESH_MS=0) and the reads in flight. */
export class KeyGrantReads {
  readonly inFlight = new Map<KeyHash, Promise<ReadAnswer>>();
  /** Keys whose grant was forgotten after a 403 lately: not again until their time. */
  private readonly rereads = new ExpiringKeys(MAX_GRANTS);

  constructor(
    readonly store: KeyGrants | null,
    readonly features: UpstreamFeatures,
  ) {}

  /**
   * Whether a request of the key would read its grant first (one upstream call its operation's
   * estimate does not price): the read is on, and this process does not hold the key's answer.
   * A key another process read (Redis) counts as pending: the estimate stays at least the calls.
   */
  readPending(hash: KeyHash): boolean {
    return this.store !== null && this.features.personalKeySelf !== false && !this.store.heldHere(hash);
  }

  /**
   * PostHog answered a call of the key 403. Unless the key's grant explains it (a scope it lacks),
   * or it is not about the key (a feature the team lacks), the grant is read again next time,
   * unless it was so lately (REREAD_SHARE).
   */
  heardForbidden(hash: KeyHash, path: string, error: unknown): void {
    if (!this.store || path === CURRENT_KEY_PATH || !(error instanceof GraphQLError)) return;
    const { code, upstream, reason, requiredScope } = error.extensions;
    if (code !== 'FORBIDDEN' || !upstream || reason === 'FEATURE_NOT_ENABLED') return;
    const store = this.store;
    const decide = (known: KnownGrant | undefined) => {
      if (known === undefined || known === 'unreadable') return;
      if (typeof requiredScope === 'string' && !grants(known, requiredScope)) return;
      const now = Date.now();
      if (this.rereads.expiryOf(hash, now) > 0) return;
      this.rereads.note(hash, now + store.refreshMs / REREAD_SHARE);
      store.forget(hash);
    };
    const known = store.known(hash);
    if (known instanceof Promise) known.then(decide, () => undefined);
    else decide(known);
  }
}

/** One request's view of its key's grant. */
export class KeyGrantLoader {
  private memo: ReadAnswer | Promise<ReadAnswer> | undefined;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly reads: KeyGrantReads,
  ) {}

  /**
   * The key's grant; null when not known (off, no key, not a personal key, no route, a failed
   * read, a key PostHog refused: its calls fail as such).
   */
  grant(): KeyGrant | null | Promise<KeyGrant | null> {
    return mapMaybePromise(this.answer(), (answer) => (answer instanceof GraphQLError ? null : answer));
  }

  /** As grant(), but a key PostHog refused (401, now or lately) throws UNAUTHENTICATED, as its calls do. */
  grantOrRefusal(): KeyGrant | null | Promise<KeyGrant | null> {
    return mapMaybePromise(this.answer(), (answer) => {
      if (answer instanceof GraphQLError)
        throw new GraphQLError(answer.message, { extensions: answer.extensions });
      return answer;
    });
  }

  private answer(): ReadAnswer | Promise<ReadAnswer> {
    if (this.memo === undefined) this.memo = this.load();
    return this.memo;
  }

  private load(): ReadAnswer | Promise<ReadAnswer> {
    const { store, features } = this.reads;
    const hash = this.upstream.keyHash();
    if (!store || hash === null || features.personalKeySelf === false) return null;
    const known = store.known(hash);
    return known instanceof Promise
      ? known.then(
          (k) => this.readUnless(hash, k),
          () => null,
        )
      : this.readUnless(hash, known);
  }

  private readUnless(hash: KeyHash, known: KnownGrant | undefined): ReadAnswer | Promise<ReadAnswer> {
    if (known !== undefined) return known === 'unreadable' ? null : known;
    const { inFlight } = this.reads;
    let read = inFlight.get(hash);
    if (!read) {
      read = this.read(hash).finally(() => inFlight.delete(hash));
      inFlight.set(hash, read);
    }
    return read;
  }

  private async read(hash: KeyHash): Promise<ReadAnswer> {
    const store = this.reads.store!;
    try {
      const answer = await this.upstream.request({ method: 'GET', path: CURRENT_KEY_PATH });
      const grant = grantOf(answer.body);
      store.remember(hash, grant ?? 'unreadable');
      return grant;
    } catch (error) {
      // The key's standing holds the refusal (bounded); nothing of it is kept here.
      if (isUnauthenticated(error)) return error;
      const upstream = error instanceof GraphQLError ? error.extensions.upstream : undefined;
      const status = (upstream as { status?: unknown } | undefined)?.status;
      if (status === 403 || status === 404) store.remember(hash, 'unreadable');
      return null;
    }
  }
}
