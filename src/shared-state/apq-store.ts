// APQ registrations shared by every process through Redis, so a hash registered on one replica
// runs on the next and after a restart. Each text is kept APQ_TTL_SECONDS from its last
// registration, at most MAX_ITEM_BYTES, and at most MAX_ENTRIES of them (the oldest registrations
// go first). Keys are `apq:<sha256 of the text>`: the document's hash, never a caller's key.
// Redis lost: `get` answers null (PERSISTED_QUERY_NOT_FOUND, and the client sends the text
// again), `set` is dropped; the process's own memory of texts still answers.
import type { SharedRedis } from './redis.ts';

export const APQ_TTL_SECONDS = 24 * 3600;
export const MAX_ENTRIES = 10_000;
const MAX_ITEM_BYTES = 1024 * 1024;

/**
 * Stores one text and trims the index to MAX_ENTRIES, the oldest first, in one step.
 * KEYS[1] the text's key, KEYS[2] the index (ioredis prefixes both, so the index holds whole key
 * names, which DEL takes as they are); ARGV: text, ttl, now, max entries.
 */
const REGISTER = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('EXPIRE', KEYS[2], ARGV[2])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  for _, key in ipairs(oldest) do redis.call('DEL', key) end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
end
return 1`;

export class SharedApqStore {
  constructor(private readonly redis: SharedRedis) {}

  async get(id: string): Promise<string | null> {
    if (!this.redis.healthy) return null;
    return this.redis.commands.get(`apq:${id}`).catch(() => null);
  }

  set(id: string, text: string): void {
    if (!this.redis.healthy || Buffer.byteLength(text) > MAX_ITEM_BYTES) return;
    this.redis.commands
      .eval(REGISTER, 2, `apq:${id}`, 'apq-index', text, APQ_TTL_SECONDS, Date.now(), MAX_ENTRIES)
      .catch(() => undefined);
  }
}
