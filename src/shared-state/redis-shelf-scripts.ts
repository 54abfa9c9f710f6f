// The Lua of the Redis shelf (redis-shelf.ts). Every key carries the hash tag `{kept}`, so each
// script's keys are on one slot of a cluster. An entry is a hash: `g` the changes counted when its
// read began, `m` its status, content type and time as JSON, `b` its body. The index (a sorted set
// of entries by expiry), their sizes (a hash) and their total (a string) bound the bytes held.

/** The changes counted now of KEYS[2..4], and the entry KEYS[1] if they are its; KEYS[5]: a flight. */
export const LOOK = `
local seen = (redis.call('GET', KEYS[2]) or '0') .. ':' .. (redis.call('GET', KEYS[3]) or '0') .. ':' .. (redis.call('GET', KEYS[4]) or '0')
local reading = 0
if KEYS[5] then reading = redis.call('EXISTS', KEYS[5]) end
local e = redis.call('HMGET', KEYS[1], 'g', 'm', 'b')
if e[1] == seen then return {seen, e[2], e[3], reading} end
return {seen, false, false, reading}
`;

/**
 * Keeps the entry KEYS[1] (ARGV: seen, meta, body, ttl ms, now ms, max bytes) unless the changes
 * counted of KEYS[2..4] are no longer ARGV[1]; KEYS[5] index, KEYS[6] total, KEYS[7] sizes. Expired
 * entries leave the count first; then the soonest to expire leave until the entry fits.
 */
export const PUT = `
local seen = (redis.call('GET', KEYS[2]) or '0') .. ':' .. (redis.call('GET', KEYS[3]) or '0') .. ':' .. (redis.call('GET', KEYS[4]) or '0')
if seen ~= ARGV[1] then return 0 end
local ttl, now, max = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local size = string.len(ARGV[3]) + string.len(ARGV[2]) + 256
if size > max / 4 then return 0 end
local function drop(member)
  local s = tonumber(redis.call('HGET', KEYS[7], member) or '0')
  redis.call('HDEL', KEYS[7], member)
  redis.call('ZREM', KEYS[5], member)
  redis.call('DEL', member)
  redis.call('DECRBY', KEYS[6], s)
end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'LIMIT', 0, 64)) do drop(m) end
if redis.call('HEXISTS', KEYS[7], KEYS[1]) == 1 then drop(KEYS[1]) end
local total = tonumber(redis.call('GET', KEYS[6]) or '0')
while total + size > max do
  local first = redis.call('ZRANGE', KEYS[5], 0, 0)
  if #first == 0 then break end
  drop(first[1])
  total = tonumber(redis.call('GET', KEYS[6]) or '0')
end
redis.call('HSET', KEYS[1], 'g', ARGV[1], 'm', ARGV[2], 'b', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[5], now + ttl, KEYS[1])
redis.call('HSET', KEYS[7], KEYS[1], size)
redis.call('INCRBY', KEYS[6], size)
for i = 5, 7 do redis.call('PEXPIRE', KEYS[i], ttl * 2) end
return 1
`;

/** Counts a change of each KEYS[i], each kept ARGV[1] ms (longer than any entry it drops). */
export const BUMP = `
for _, k in ipairs(KEYS) do
  redis.call('INCR', k)
  redis.call('PEXPIRE', k, ARGV[1])
end
return #KEYS
`;
