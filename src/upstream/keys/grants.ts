// What a personal API key may do, as PostHog answers it to the key itself
// (GET /api/personal_api_keys/@current/): its scopes and the projects and organizations it is
// limited to, by the key's hash (never the key). Read once per key and kept KEY_SCOPES_REFRESH_MS;
// a credential that cannot read itself (not a personal key, or an upstream without the route) is
// remembered as `unreadable` for as long, so it is not asked again each request.
//
// This file is one process's memory, bounded (MAX_GRANTS keys, the least recently used dropped
// first). With REDIS_URL the processes share it (shared-state/shared-grants.ts).
import { BoundedCache } from '../../core/bounded-cache.ts';
import type { KeyHash } from '../../core/caller-key.ts';

/** What PostHog answers of a key: its scopes and what it is limited to (empty: not limited). */
export interface KeyGrant {
  /** PersonalAPIKey.scopes; `*` grants every scope. */
  scopes: readonly string[];
  /** PersonalAPIKey.scoped_teams, as project ids; empty: every project the user may reach. */
  projectIds: readonly string[];
  /** PersonalAPIKey.scoped_organizations (UUIDs); empty: every organization of the user. */
  organizationIds: readonly string[];
}

/** A key's grant, or that the credential cannot say (calls go as without this). */
export type KnownGrant = KeyGrant | 'unreadable';

/** The memory of grants: this process's, or shared through Redis. */
export interface KeyGrants {
  /** KEY_SCOPES_REFRESH_MS: how long what was read of a key is kept. */
  readonly refreshMs: number;
  /** What is remembered of the key; undefined: nothing (read it). */
  known(hash: KeyHash): KnownGrant | undefined | Promise<KnownGrant | undefined>;
  remember(hash: KeyHash, known: KnownGrant): void;
  /** Whether this process holds what is known of the key now (its requests then read nothing). */
  heldHere(hash: KeyHash): boolean;
  /** PostHog refused the key something its grant did not explain: read it again. */
  forget(hash: KeyHash): void;
}

/** Keys remembered in one process. */
export const MAX_GRANTS = 10_000;

export class KeyGrantsHere implements KeyGrants {
  private readonly grants = new BoundedCache<{ known: KnownGrant; until: number }>({
    maxEntries: MAX_GRANTS,
    maxBytes: 64 * 1024 * 1024,
    maxItemBytes: 256 * 1024,
  });

  /** `refreshMs`: KEY_SCOPES_REFRESH_MS, how long what was read of a key is kept. */
  constructor(readonly refreshMs: number) {}

  known(hash: KeyHash): KnownGrant | undefined {
    const item = this.grants.get(hash);
    if (item === undefined) return undefined;
    if (item.until > Date.now()) return item.known;
    this.grants.delete(hash);
    return undefined;
  }

  heldHere(hash: KeyHash): boolean {
    return this.known(hash) !== undefined;
  }

  remember(hash: KeyHash, known: KnownGrant, ttlMs = this.refreshMs): void {
    if (ttlMs > 0) this.grants.set(hash, { known, until: Date.now() + ttlMs });
  }

  forget(hash: KeyHash): void {
    this.grants.delete(hash);
  }
}

/** `x:write` grants `x:read`, `*` grants all (posthog/permissions.py, APIScopePermission). */
export function grants(grant: KeyGrant, scope: string): boolean {
  const [object, action] = scope.split(':');
  return grant.scopes.some((s) => s === '*' || s === scope || (action === 'read' && s === `${object}:write`));
}

/** PersonalAPIKeySerializer's answer as a grant; null when it is not one. */
export function grantOf(body: unknown): KeyGrant | null {
  if (!body || typeof body !== 'object') return null;
  const { scopes, scoped_teams, scoped_organizations } = body as Record<string, unknown>;
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) return null;
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  return {
    // to_representation answers an empty list as ["*"]; an older one might not.
    scopes: scopes.length === 0 ? ['*'] : scopes,
    projectIds: list(scoped_teams),
    organizationIds: list(scoped_organizations),
  };
}
