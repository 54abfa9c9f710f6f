// What each key may do (upstream/keys/grants.ts) shared by every process through Redis:
// `grants:<key hash>`, the grant as JSON, with KEY_SCOPES_REFRESH_MS as its TTL. `unreadable` is
// kept in this process's memory only (bounded): anyone can present credentials that cannot read
// themselves, and each would otherwise leave a key in Redis. A 403 the grant did not explain
// deletes it here and in Redis; another process that holds it in its own memory reads it again
// only once that memory lapses (KEY_SCOPES_REFRESH_MS at most) or after such a 403 of its own.
//
// Each process keeps its own memory too and answers from it alone when it holds the key (a
// key's requests never wait on Redis then); for any other key it asks Redis for GRANTS_WAIT_MS
// at most and remembers the answer for what is left of its TTL. Redis lost, slow or silent: this
// process's memory alone, as without REDIS_URL.
import type { KeyHash } from '../core/caller-key.ts';
import type { KeyGrants, KeyGrantsHere, KnownGrant } from '../upstream/keys/grants.ts';
import type { SharedRedis } from './redis.ts';

/** How long a request waits for Redis to say what it knows of its key's grant. */
export const GRANTS_WAIT_MS = 250;
const grantKey = (hash: KeyHash) => `grants:${hash}`;

export class SharedKeyGrants implements KeyGrants {
  constructor(
    private readonly redis: SharedRedis,
    private readonly here: KeyGrantsHere,
  ) {}

  get refreshMs(): number {
    return this.here.refreshMs;
  }

  known(hash: KeyHash): KnownGrant | undefined | Promise<KnownGrant | undefined> {
    const here = this.here.known(hash);
    if (here !== undefined || !this.redis.healthy) return here;
    return this.ask(hash);
  }

  heldHere(hash: KeyHash): boolean {
    return this.here.heldHere(hash);
  }

  remember(hash: KeyHash, known: KnownGrant): void {
    this.here.remember(hash, known);
    if (known === 'unreadable' || !this.redis.healthy) return;
    this.redis.commands
      .set(grantKey(hash), JSON.stringify(known), 'PX', this.here.refreshMs)
      .catch(() => undefined);
  }

  forget(hash: KeyHash): void {
    this.here.forget(hash);
    if (this.redis.healthy) this.redis.commands.del(grantKey(hash)).catch(() => undefined);
  }

  /** What Redis holds of the key, remembered here; nothing when Redis cannot say in time. */
  private async ask(hash: KeyHash): Promise<KnownGrant | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), GRANTS_WAIT_MS);
    });
    const asked = this.redis.commands
      .multi()
      .get(grantKey(hash))
      .pttl(grantKey(hash))
      .exec()
      .catch(() => null);
    const answer = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
    if (!answer) return undefined;
    const [[, text], [, ttlMs]] = answer as [[unknown, string | null], [unknown, number]];
    if (text === null || !(ttlMs > 0)) return undefined;
    try {
      const known = JSON.parse(text) as KnownGrant;
      this.here.remember(hash, known, ttlMs);
      return known;
    } catch {
      return undefined;
    }
  }
}
