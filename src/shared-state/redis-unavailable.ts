// Start-up's one failure of shared state: REDIS_URL set and Redis not answering. Apart from the
// connection (redis.ts) so that main.ts can recognise it without loading ioredis, which only a
// gateway with REDIS_URL imports.
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}
