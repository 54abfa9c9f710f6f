// The upstream budget of each key counted across every process (upstream/key-budget.ts takes
// permits from here in slices). Per key hash, two Redis hashes of counts: by second
// (`budget:<hash>:s`, the minute's window) and by minute (`budget:<hash>:m`, the hour's). A slice
// is granted only as far as both windows have room, counting the slot a window starts in whole and
// one slot more for a slice's lifetime (a permit is spent up to SLICE_MS after it is counted), so
// the count Redis holds is never below what PostHog sees. A 429's pause is published on `pause`.
import type { KeyHash } from '../caller-key.ts';
import type { BudgetLimits, KeyBudget, SliceSource } from '../upstream/key-budget.ts';
import type { SharedRedis } from './redis.ts';

/**
 * KEYS: the by-second and by-minute counts. ARGV: second, minute, want, per minute, per hour.
 * Returns the permits granted (0: none left in one of the windows).
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
local second, minute, grant = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local perMinute, perHour = tonumber(ARGV[4]), tonumber(ARGV[5])
if perMinute > 0 then grant = math.min(grant, perMinute - counted(KEYS[1], second - 61)) end
if perHour > 0 then grant = math.min(grant, perHour - counted(KEYS[2], minute - 61)) end
if grant <= 0 then return 0 end
redis.call('HINCRBY', KEYS[1], second, grant)
redis.call('PEXPIRE', KEYS[1], 70000)
redis.call('HINCRBY', KEYS[2], minute, grant)
redis.call('PEXPIRE', KEYS[2], 3700000)
return grant`;

/** KEYS as TAKE's; ARGV: second, minute, permits not spent. */
const GIVE_BACK = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[3])) end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[2], ARGV[2], -tonumber(ARGV[3])) end
return 1`;

const keysOf = (key: KeyHash) => [`budget:${key}:s`, `budget:${key}:m`];
const slotsOf = (at: number) => [Math.floor(at / 1000), Math.floor(at / 60_000)];

export class SharedBudget implements SliceSource {
  constructor(private readonly redis: SharedRedis) {}

  get healthy(): boolean {
    return this.redis.healthy;
  }

  get peers(): number {
    return this.redis.peers;
  }

  async takeSlice(key: KeyHash, want: number, limits: BudgetLimits): Promise<number | null> {
    const [second, minute] = slotsOf(Date.now());
    try {
      const granted = await this.redis.commands.eval(
        TAKE,
        2,
        ...keysOf(key),
        second!,
        minute!,
        want,
        limits.perMinute,
        limits.perHour,
      );
      return Number(granted);
    } catch {
      return null;
    }
  }

  giveBack(key: KeyHash, permits: number, takenAt: number): void {
    const [second, minute] = slotsOf(takenAt);
    this.redis.commands.eval(GIVE_BACK, 2, ...keysOf(key), second!, minute!, permits).catch(() => undefined);
  }

  pause(key: KeyHash, untilMs: number): void {
    this.redis.commands
      .publish(this.redis.channel('pause'), JSON.stringify({ from: this.redis.processId, key, untilMs }))
      .catch(() => undefined);
  }

  /** Pauses published by other processes reach `budget`. */
  async listen(budget: KeyBudget): Promise<void> {
    const channel = this.redis.channel('pause');
    this.redis.subscriber.on('message', (from: string, text: string) => {
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
    await this.redis.subscriber.subscribe(channel);
  }
}
