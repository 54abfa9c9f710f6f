// What PostHog said of a key lately, by its hash (core/caller-key.ts; never the key): accepted (an
// upstream call with it succeeded, 2xx) for KEY_ACCEPTED_TTL_MS, or refused (PostHog answered 401)
// for KEY_REFUSED_TTL_MS. The upstream client refuses a refused key's calls before they are sent
// and keeps keys not accepted to their share of the calls in flight (key-admission.ts,
// unverified-share.ts); live work reads it through LiveServices.keyStanding.
//
// This file is one process's memory, bounded: at most MAX_REMEMBERED keys of each standing, the
// one noted longest ago forgotten first, so keys nobody issued (each refused) never push out an
// accepted one and never grow it. With REDIS_URL the processes share it
// (shared-state/shared-standing.ts), and fall back to this when Redis is lost.
import type { KeyHash } from '../../core/caller-key.ts';
import { ExpiringKeys } from './expiring-keys.ts';

export type Standing = 'accepted' | 'refused' | 'unknown';

/** What PostHog said of keys lately: the API live work and the upstream client share. */
export interface KeyStanding {
  /** Whether an upstream call with this key has succeeded lately (here or, with Redis, in any process). */
  isAccepted(hash: KeyHash): boolean | Promise<boolean>;
  /** Whether PostHog refused this key (401) lately: calls with it fail at once, without a call. */
  isRefused(hash: KeyHash): boolean | Promise<boolean>;
  /** A 2xx with the key: accepted, and no longer refused. */
  noteAccepted(hash: KeyHash): void;
  /** A 401 with the key: refused, and no longer accepted. */
  noteRefused(hash: KeyHash): void;
}

/** What the upstream client reads besides: this process's memory now, and the shared one. */
export interface RememberedStandings extends KeyStanding {
  /** What this process remembers now (what Redis last said of the key included); never waits. */
  standingHere(hash: KeyHash): Standing;
  /**
   * What is remembered anywhere: this process's memory, or (shared, for a key not accepted here)
   * Redis's, which it then remembers here too. Waits for Redis for a bounded time at most.
   */
  standingOf(hash: KeyHash): Standing | Promise<Standing>;
}

export interface StandingSettings {
  /** KEY_ACCEPTED_TTL_MS. */
  acceptedTtlMs: number;
  /** KEY_REFUSED_TTL_MS; 0: a refusal is not remembered past its request. */
  refusedTtlMs: number;
}

export const DEFAULT_STANDING: StandingSettings = { acceptedTtlMs: 600_000, refusedTtlMs: 60_000 };

/** Keys remembered per standing in one process. */
export const MAX_REMEMBERED = 10_000;

export class KeyStandingHere implements RememberedStandings {
  private readonly accepted = new ExpiringKeys(MAX_REMEMBERED);
  private readonly refused = new ExpiringKeys(MAX_REMEMBERED);

  constructor(readonly settings: StandingSettings = DEFAULT_STANDING) {}

  standingHere(hash: KeyHash): Standing {
    const now = Date.now();
    if (this.accepted.expiryOf(hash, now) > 0) return 'accepted';
    return this.refused.expiryOf(hash, now) > 0 ? 'refused' : 'unknown';
  }

  standingOf(hash: KeyHash): Standing {
    return this.standingHere(hash);
  }

  isAccepted(hash: KeyHash): boolean {
    return this.standingHere(hash) === 'accepted';
  }

  isRefused(hash: KeyHash): boolean {
    return this.standingHere(hash) === 'refused';
  }

  noteAccepted(hash: KeyHash): void {
    this.acceptHere(hash);
  }

  noteRefused(hash: KeyHash): void {
    this.refuseHere(hash);
  }

  /**
   * Accepted for `ttlMs` from now. Every 2xx calls this: an acceptance with more than half its
   * time left is left as it is. Returns whether anything changed (what the shared memory writes).
   */
  acceptHere(hash: KeyHash, ttlMs = this.settings.acceptedTtlMs): boolean {
    const now = Date.now();
    const wasRefused = this.refused.forget(hash);
    if (!wasRefused && this.accepted.expiryOf(hash, now) - now > ttlMs / 2) return false;
    this.accepted.note(hash, now + ttlMs);
    return true;
  }

  /** Refused for `ttlMs` from now. */
  refuseHere(hash: KeyHash, ttlMs = this.settings.refusedTtlMs): void {
    this.accepted.forget(hash);
    if (ttlMs > 0) this.refused.note(hash, Date.now() + ttlMs);
  }

  /** Keys remembered now, of each standing (expired ones not yet dropped included). */
  get size(): { accepted: number; refused: number } {
    return { accepted: this.accepted.size, refused: this.refused.size };
  }
}
