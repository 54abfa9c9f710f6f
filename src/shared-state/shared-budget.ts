// The upstream budget of each key counted across every process (upstream/keys/budget.ts takes
// permits from here in slices). Per key hash, two Redis hashes of counts: by second
// (`{budget}:<hash>:s`, the minute's window) and by minute (`{budget}:<hash>:m`, the hour's).
// Every budget key carries the hash tag `{budget}`: TAKE drops other keys' counts, so all of them
// must be on one slot of a cluster. A slice is granted only as far as both windows have room, counting the slot a window starts in whole and
// the seconds of a slice's lifetime more (a permit is spent up to a slice's lifetime after it is
// asked for), so the count Redis holds is never below what PostHog sees. The slots are read from
// Redis's own clock (TIME) in the one script that checks and adds: every process counts by the
// same clock, however the processes' clocks differ, and no two can both take the last room. A
// 429's pause is published on `pause`.
//
// Keys counted at once are bounded as in each process (key-budget.ts's MAX_KEYS), for the fleet:
// `{budget}:keys` (a sorted set: key → the second of its last slice) holds each counted key, and
// past MAX_COUNTED_KEYS the one whose last slice is oldest loses its counts. Anyone can invent
// keys (each a 401 upstream, but counted before it is sent): without the bound, each would leave
// its hashes in Redis until they expire. A real key pushed out counts from zero again (its
// pause is each process's, not Redis's, and is kept); past PostHog's limit, PostHog's 429 pauses
// it.
import type { KeyHash } from '../core/caller-key.ts';
import type { BudgetLimits, KeyBudget } from '../upstream/keys/budget.ts';
import type { BudgetCounts } from '../upstream/keys/budget-left.ts';
import type { SliceSource } from '../upstream/keys/slices.ts';
import type { SharedRedis } from './redis.ts';
import { SILENT_REDIS_MS } from './silent-redis.ts';

/** How long a read of a key's counts (extensions.cost, RateLimit, a poller's pace) waits for Redis. */
export const COUNTS_WAIT_MS = 250;

/**
 * KEYS: the by-second and by-minute counts, the keys counted. ARGV: want, per minute, per hour,
 * max keys, calls admitted alone (counted now, whatever room is left), a slice's lifetime in
 * seconds. Returns the permits granted (0: none left in one of the windows) and Redis's time (ms)
 * they were counted at.
 */
const TAKE = `
local function counted(key, oldest)
  local total = 0
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    if tonumber(all[i]) < oldest then redis.call('HDEL', key, all[i])
    else total = total + tonumber(all[i + 1]) end
  end
  return total
end
local time = redis.call('TIME')
local second = tonumber(time[1])
local minute, ms = math.floor(second / 60), second * 1000 + math.floor(tonumber(time[2]) / 1000)
local grant, perMinute, perHour = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local alone, lifetime = tonumber(ARGV[5]), tonumber(ARGV[6])
if alone > 0 then
  redis.call('HINCRBY', KEYS[1], second, alone)
  redis.call('HINCRBY', KEYS[2], minute, alone)
end
if perMinute > 0 then grant = math.min(grant, perMinute - counted(KEYS[1], second - 61 - lifetime)) end
if perHour > 0 then grant = math.min(grant, perHour - counted(KEYS[2], minute - 61)) end
if grant < 0 then grant = 0 end
redis.call('HINCRBY', KEYS[1], second, grant)
redis.call('PEXPIRE', KEYS[1], 70000)
redis.call('HINCRBY', KEYS[2], minute, grant)
redis.call('PEXPIRE', KEYS[2], 3700000)
local base = string.sub(KEYS[1], 1, -3)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', second - 3700)
redis.call('ZADD', KEYS[3], second, base)
redis.call('PEXPIRE', KEYS[3], 3700000)
local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[4])
if over > 0 then
  for _, oldest in ipairs(redis.call('ZRANGE', KEYS[3], 0, over)) do
    if over > 0 and oldest ~= base then
      redis.call('DEL', oldest .. ':s', oldest .. ':m')
      redis.call('ZREM', KEYS[3], oldest)
      over = over - 1
    end
  end
end
return {grant, ms}`;

/** KEYS as TAKE's; ARGV: second, minute, permits not spent. */
const GIVE_BACK = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[3])) end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[2], ARGV[2], -tonumber(ARGV[3])) end
return 1`;

/**
 * KEYS as TAKE's first two; ARGV: a slice's lifetime in seconds. Counts as TAKE does, changing
 * nothing: each window's count, the oldest slot counted (-1: none), and Redis's second.
 */
const COUNT = `
local function counted(key, oldest)
  local total, first = 0, -1
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local slot, n = tonumber(all[i]), tonumber(all[i + 1])
    if slot >= oldest and n > 0 then
      total = total + n
      if first < 0 or slot < first then first = slot end
    end
  end
  return {total, first}
end
local second = tonumber(redis.call('TIME')[1])
local m = counted(KEYS[1], second - 61 - tonumber(ARGV[1]))
local h = counted(KEYS[2], math.floor(second / 60) - 61)
return {m[1], m[2], h[1], h[2], second}`;

const keysOf = (key: KeyHash) => [`{budget}:${key}:s`, `{budget}:${key}:m`];
/** The keys counted in Redis, by the second of their last slice. */
export const BUDGET_KEYS = '{budget}:keys';
/** At most this many of them: key-budget.ts's MAX_KEYS, a process's bound. */
export const MAX_COUNTED_KEYS = 10_000;
const slotsOf = (at: number) => [Math.floor(at / 1000), Math.floor(at / 60_000)];

export class SharedBudget implements SliceSource {
  constructor(private readonly redis: SharedRedis) {}

  readonly silentAfterMs = SILENT_REDIS_MS;

  get healthy(): boolean {
    return this.redis.healthy;
  }

  get peers(): number {
    return this.redis.peers;
  }

  async takeSlice(
    key: KeyHash,
    want: number,
    limits: BudgetLimits,
    spentAlone: number,
    lifetimeMs: number,
  ): Promise<{ granted: number; at: number } | null> {
    try {
      const [granted, at] = (await this.redis.commands.eval(
        TAKE,
        3,
        ...keysOf(key),
        BUDGET_KEYS,
        want,
        limits.perMinute,
        limits.perHour,
        MAX_COUNTED_KEYS,
        spentAlone,
        Math.ceil(lifetimeMs / 1000),
      )) as [number, number];
      return { granted: Number(granted), at: Number(at) };
    } catch {
      return null;
    }
  }

  /**
   * The key's counts in each window as TAKE would see them now; nothing is taken. null (the
   * caller counts alone) when Redis has not answered within COUNTS_WAIT_MS.
   */
  async counts(key: KeyHash, lifetimeMs: number): Promise<BudgetCounts | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const lifetime = Math.ceil(lifetimeMs / 1000);
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), COUNTS_WAIT_MS);
      });
      const asked = this.redis.commands.eval(COUNT, 2, ...keysOf(key), lifetime) as Promise<number[]>;
      asked.catch(() => undefined);
      const answer = await Promise.race([asked, late]);
      if (!answer) return null;
      const [minute, firstSecond, hour, firstMinute, second] = answer.map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      return {
        minute: { count: minute, resetSeconds: firstSecond < 0 ? 0 : firstSecond + 62 + lifetime - second },
        hour: { count: hour, resetSeconds: firstMinute < 0 ? 0 : (firstMinute + 62) * 60 - second },
      };
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  giveBack(key: KeyHash, permits: number, at: number): void {
    const [second, minute] = slotsOf(at);
    this.redis.commands.eval(GIVE_BACK, 2, ...keysOf(key), second!, minute!, permits).catch(() => undefined);
  }

  pause(key: KeyHash, untilMs: number): void {
    this.redis
      .publish(this.redis.channel('pause'), JSON.stringify({ from: this.redis.processId, key, untilMs }))
      .catch(() => undefined);
  }

  /** Pauses published by other processes reach `budget`. */
  async listen(budget: KeyBudget): Promise<void> {
    const channel = this.redis.channel('pause');
    this.redis.onMessage((from, text) => {
      if (from !== channel) return;
      try {
        const {
          from: sender,
          key,
          untilMs,
        } = JSON.parse(text) as { from: string; key: KeyHash; untilMs: number };
        if (sender !== this.redis.processId && typeof key === 'string' && Number.isFinite(untilMs))
          budget.pausedHere(key, untilMs);
      } catch {
        // not ours
      }
    });
    await this.redis.subscribe(channel);
  }
}
