// What PostHog said of each key (upstream/keys/standing.ts) shared by every process through Redis.
// Accepted: `{standing}:accepted:<key hash>`, a string with KEY_ACCEPTED_TTL_MS as its TTL, written
// when a process's acceptance of the key is new or half spent. Refused: the sorted set
// `{standing}:refused`, each key hash scored with when its refusal lapses; lapsed ones are dropped
// at each refusal, and past MAX_REFUSED_KEYS the ones lapsing soonest go, so keys nobody issued
// cannot grow it without bound; the set lives KEY_REFUSED_TTL_MS past the last refusal. A refusal
// ends the key's acceptance, and an acceptance its refusal. Both carry the hash tag `{standing}`:
// a refusal's script and an acceptance's MULTI touch both, on one slot of a cluster.
//
// Each process keeps its own memory too, and answers from it alone for a key it saw accepted
// (a real key's calls never wait on Redis). For any other key it asks Redis once per request, for
// STANDING_WAIT_MS at most, and remembers the answer. Redis lost, slow or silent: this process's
// memory alone, as without REDIS_URL.
import type { KeyHash } from '../core/caller-key.ts';
import type { KeyStandingHere, RememberedStandings, Standing } from '../upstream/keys/standing.ts';
import type { SharedRedis } from './redis.ts';

/** Refusals Redis holds at most (the same bound as each process's memory). */
export const MAX_REFUSED_KEYS = 10_000;
/** How long a call waits for Redis to say what it knows of its key. */
export const STANDING_WAIT_MS = 250;
/** The sorted set of refused key hashes, scored by when each refusal lapses. */
export const REFUSED_KEYS = '{standing}:refused';
const acceptedKey = (hash: KeyHash) => `{standing}:accepted:${hash}`;

/** KEYS: the refused set, the key's acceptance. ARGV: hash, now, lapses at, max keys, set TTL. */
const REFUSE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then redis.call('ZPOPMIN', KEYS[1], over) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('DEL', KEYS[2])
return 1`;

export class SharedKeyStanding implements RememberedStandings {
  constructor(
    private readonly redis: SharedRedis,
    private readonly here: KeyStandingHere,
  ) {}

  standingHere(hash: KeyHash): Standing {
    return this.here.standingHere(hash);
  }

  standingOf(hash: KeyHash): Standing | Promise<Standing> {
    const here = this.here.standingHere(hash);
    if (here === 'accepted' || !this.redis.healthy) return here;
    return this.ask(hash);
  }

  isAccepted(hash: KeyHash): boolean | Promise<boolean> {
    const standing = this.standingOf(hash);
    return standing instanceof Promise ? standing.then((s) => s === 'accepted') : standing === 'accepted';
  }

  isRefused(hash: KeyHash): boolean | Promise<boolean> {
    const standing = this.standingOf(hash);
    return standing instanceof Promise ? standing.then((s) => s === 'refused') : standing === 'refused';
  }

  noteAccepted(hash: KeyHash): void {
    if (!this.here.acceptHere(hash) || !this.redis.healthy) return;
    const { acceptedTtlMs } = this.here.settings;
    this.redis.commands
      .multi()
      .set(acceptedKey(hash), '1', 'PX', acceptedTtlMs)
      .zrem(REFUSED_KEYS, hash)
      .exec()
      .catch(() => undefined);
  }

  noteRefused(hash: KeyHash): void {
    this.here.refuseHere(hash);
    const { refusedTtlMs } = this.here.settings;
    if (refusedTtlMs === 0 || !this.redis.healthy) return;
    const now = Date.now();
    this.redis.commands
      .eval(
        REFUSE,
        2,
        REFUSED_KEYS,
        acceptedKey(hash),
        hash,
        now,
        now + refusedTtlMs,
        MAX_REFUSED_KEYS,
        refusedTtlMs,
      )
      .catch(() => undefined);
  }

  /** What Redis knows of the key, remembered here; this process's memory when Redis cannot say in time. */
  private async ask(hash: KeyHash): Promise<Standing> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), STANDING_WAIT_MS);
    });
    const asked = this.redis.commands
      .multi()
      .pttl(acceptedKey(hash))
      .zscore(REFUSED_KEYS, hash)
      .exec()
      .catch(() => null);
    const answer = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
    if (answer) {
      const [[, acceptedMs], [, refusedUntil]] = answer as [[unknown, number], [unknown, string | null]];
      const refusedMs = refusedUntil === null ? 0 : Number(refusedUntil) - Date.now();
      // A refusal noted here and not yet in Redis stands: Redis's silence clears nothing.
      if (refusedMs > 0) this.here.refuseHere(hash, refusedMs);
      else if (acceptedMs > 0) this.here.acceptHere(hash, acceptedMs);
    }
    return this.here.standingHere(hash);
  }
}
