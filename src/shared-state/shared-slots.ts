// MAX_SUBSCRIPTIONS_PER_KEY counted across every process through Redis: a key's open
// subscriptions and live queries are the members of one sorted set (`{slots}:<key hash>`), each
// scored with when it lapses. Its process renews the slots it holds every RENEW_MS; a process
// that dies stops renewing, and its slots lapse within SLOT_TTL_MS. A slot is reserved atomically
// (no two processes can both take the last one) before its stream starts; one whose stream never
// starts is never renewed and lapses the same way. Bounded: a key's set holds at most
// MAX_SUBSCRIPTIONS_PER_KEY members, and a process holds at most MAX_SUBSCRIPTIONS of them. Every
// set carries the hash tag `{slots}`: the renewal's pipeline touches them all, and a cluster takes
// a pipeline's keys on one slot only.
import { randomUUID } from 'node:crypto';
import type { KeyHash } from '../core/caller-key.ts';
import type { SlotCounter } from '../live/subscription-slots.ts';
import type { SharedRedis } from './redis.ts';

export const SLOT_TTL_MS = 15_000;
const slotsKey = (key: KeyHash) => `{slots}:${key}`;
const RENEW_MS = 5_000;
/** Slots renewed by one ZADD. */
const RENEW_BATCH = 1_000;

/** KEYS[1] the key's set; ARGV: now, lapses at, member, max, set TTL. 1 taken, 0 full. */
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export class SharedSlots implements SlotCounter {
  /** Slots this process holds: renewed until released. */
  private readonly held = new Map<string, KeyHash>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: SharedRedis,
    private readonly maxPerKey: number,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_MS);
    this.timer.unref();
  }

  /**
   * A slot of `key` reserved across processes: its member id, false when the key has none free,
   * or null when Redis cannot say (lost: each process's own cap applies meanwhile).
   */
  async reserve(key: KeyHash): Promise<string | false | null> {
    if (!this.redis.healthy) return null;
    const member = randomUUID();
    const now = Date.now();
    try {
      const taken = await this.redis.commands.eval(
        RESERVE,
        1,
        slotsKey(key),
        now,
        now + SLOT_TTL_MS,
        member,
        this.maxPerKey,
        SLOT_TTL_MS * 2,
      );
      return taken === 1 ? member : false;
    } catch {
      return null;
    }
  }

  /** The stream of a reserved slot has started: renewed from now on. */
  hold(key: KeyHash, member: string): void {
    this.held.set(member, key);
  }

  release(key: KeyHash, member: string): void {
    this.held.delete(member);
    this.redis.commands.zrem(slotsKey(key), member).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0 || !this.redis.healthy) return;
    const lapses = Date.now() + SLOT_TTL_MS;
    const byKey = new Map<KeyHash, (string | number)[]>();
    for (const [member, key] of this.held) {
      const pairs = byKey.get(key) ?? [];
      if (pairs.length === 0) byKey.set(key, pairs);
      pairs.push(lapses, member);
    }
    // One ZADD per key and RENEW_BATCH slots, however many a process holds.
    const batch = this.redis.commands.pipeline();
    for (const [key, pairs] of byKey) {
      for (let at = 0; at < pairs.length; at += RENEW_BATCH * 2)
        batch.zadd(slotsKey(key), ...pairs.slice(at, at + RENEW_BATCH * 2));
      batch.pexpire(slotsKey(key), SLOT_TTL_MS * 2);
    }
    await batch.exec().catch(() => undefined);
  }

  close(): void {
    clearInterval(this.timer);
    for (const [member, key] of this.held) this.release(key, member);
  }
}
