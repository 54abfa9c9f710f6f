// APQ registrations shared by every process through Redis, so a hash registered on one replica
// runs on the next and after a restart. Anyone may register a text without a key, so the store
// holds no more than one process keeps in memory (persisted-operations/apq-limits.ts), for the
// whole fleet together: at most 1,000 texts and 16 MiB, none over 1 MiB, each for APQ_TTL_SECONDS
// from its last registration; the oldest registrations go first to make room.
//
// Why a byte counter kept in Redis by one Lua script: the bound is the fleet's, so it must be
// counted where every process registers, and a script runs whole (no other client's command
// between its reads and writes), so two processes registering at once cannot both see room for
// the last megabyte. Three keys besides the texts: `{apq}:index` (a sorted set: key → when
// registered, the eviction order), `{apq}:sizes` (a hash: key → bytes counted) and `{apq}:bytes`
// (their sum). A text past its TTL expires on its own and leaves the count at the next
// registration. Texts are `{apq}:text:<sha256 of the text>`: the document's hash, never a caller's key.
// Every key carries the hash tag `{apq}`: the script drops other texts, so all are on one slot.
//
// Redis lost: `get` answers null (PERSISTED_QUERY_NOT_FOUND, and the client sends the text
// again), `set` is dropped; the process's own memory of texts still answers.

import { stringBytes } from '../core/bounded-cache.ts';
import { APQ_LIMITS } from '../persisted-operations/apq-limits.ts';
import type { SharedRedis } from './redis.ts';

export const APQ_TTL_SECONDS = 24 * 3600;
export const APQ_INDEX = '{apq}:index';
export const APQ_SIZES = '{apq}:sizes';
export const APQ_BYTES = '{apq}:bytes';

/**
 * Makes room for one text (dropping expired and then the oldest entries), stores it and counts
 * it, in one step. KEYS: the text's key, the index, the sizes, the byte count (ioredis prefixes
 * them all, so index and sizes hold whole key names, which DEL takes as they are). ARGV: text,
 * TTL (s), now (ms), the text's bytes, max entries, max bytes. 1 stored, 0 too large.
 */
const REGISTER = `
local text, ttl, now, bytes = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local maxEntries, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6])
if bytes > maxBytes then return 0 end
local function forget(key)
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[2], key)
  local size = redis.call('HGET', KEYS[3], key)
  if size then
    redis.call('DECRBY', KEYS[4], size)
    redis.call('HDEL', KEYS[3], key)
  end
end
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl * 1000)) do forget(key) end
if redis.call('HEXISTS', KEYS[3], KEYS[1]) == 0 then
  while redis.call('ZCARD', KEYS[2]) >= maxEntries
    or tonumber(redis.call('GET', KEYS[4]) or '0') + bytes > maxBytes do
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
    if not oldest then
      redis.call('DEL', KEYS[3], KEYS[4])
      break
    end
    forget(oldest)
  end
  redis.call('HSET', KEYS[3], KEYS[1], bytes)
  redis.call('INCRBY', KEYS[4], bytes)
end
redis.call('SET', KEYS[1], text, 'EX', ttl)
redis.call('ZADD', KEYS[2], now, KEYS[1])
for i = 2, 4 do redis.call('EXPIRE', KEYS[i], ttl) end
return 1`;

/**
 * What a text counts against the bound: its key and text as Redis holds them (UTF-8), or null
 * when it is over the per-text limit as Redis or this process's memory weighs it (a text the
 * memory would not keep is not shared either).
 */
export function registeredBytes(keyName: string, id: string, text: string): number | null {
  const bytes = Buffer.byteLength(keyName) + Buffer.byteLength(text);
  const max = APQ_LIMITS.maxItemBytes;
  return bytes > max || stringBytes(id) + stringBytes(text) > max ? null : bytes;
}

export class SharedApqStore {
  constructor(private readonly redis: SharedRedis) {}

  async get(id: string): Promise<string | null> {
    if (!this.redis.healthy) return null;
    return this.redis.commands.get(`{apq}:text:${id}`).catch(() => null);
  }

  set(id: string, text: string): void {
    const key = `{apq}:text:${id}`;
    const bytes = registeredBytes(this.redis.settings.keyPrefix + key, id, text);
    if (!this.redis.healthy || bytes === null) return;
    const { maxEntries, maxBytes } = APQ_LIMITS;
    this.redis.commands
      .eval(
        REGISTER,
        4,
        key,
        APQ_INDEX,
        APQ_SIZES,
        APQ_BYTES,
        text,
        APQ_TTL_SECONDS,
        Date.now(),
        bytes,
        maxEntries,
        maxBytes,
      )
      .catch(() => undefined);
  }
}
