// The Redis settings (config/index.ts): REDIS_URL and its companions. One server by default;
// REDIS_CLUSTER=true takes REDIS_URL's host as a seed node of a Redis Cluster; REDIS_SENTINELS
// asks those Sentinels for the master named REDIS_SENTINEL_NAME, REDIS_URL then giving only the
// scheme, user, password and database (REDIS_SENTINEL_PASSWORD: the Sentinels' own, if they ask
// one). `rediss://` speaks TLS, trusting Node's roots and REDIS_CA_FILE's certificates. Messages
// show `label`, never a password.
import { flag, integer, list, pemFile, type Read, redisLabel, redisUrl, refuse, text } from './parsers.ts';

export interface RedisHost {
  host: string;
  port: number;
}

/** host:port, the port from 1 to 65535. */
const hostPorts = (value: string): RedisHost[] =>
  list(value).map((item) => {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(item);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) refuse('expected host:port,host:port');
    return { host: match![1]!.replace(/^\[|\]$/g, ''), port };
  });

/** The Redis section of the configuration; null without REDIS_URL. */
export function readRedis(read: Read, problems: string[]) {
  const url = read('REDIS_URL', redisUrl, null);
  const readyRequiresRedis = read('READY_REQUIRES_REDIS', flag, false);
  const cluster = read('REDIS_CLUSTER', flag, false);
  const sentinels = read('REDIS_SENTINELS', hostPorts, null);
  const sentinelName = read('REDIS_SENTINEL_NAME', text, 'mymaster');
  const sentinelPassword = read('REDIS_SENTINEL_PASSWORD', text, null);
  const ca = read('REDIS_CA_FILE', pemFile, null);
  if (readyRequiresRedis && !url) {
    problems.push('READY_REQUIRES_REDIS=true needs REDIS_URL (there is no Redis to require)');
  }
  if (!url && (cluster || sentinels || ca)) {
    problems.push('REDIS_CLUSTER, REDIS_SENTINELS and REDIS_CA_FILE need REDIS_URL');
  }
  if (cluster && sentinels) {
    problems.push('REDIS_CLUSTER=true and REDIS_SENTINELS: choose one (a cluster has no Sentinels)');
  }
  if (ca && url?.protocol !== 'rediss:') {
    problems.push('REDIS_CA_FILE needs a rediss:// REDIS_URL (TLS)');
  }
  if (!url) return null;
  const where = sentinels
    ? `${sentinelName} via Sentinels ${sentinels.map(({ host, port }) => `${host}:${port}`).join(',')}`
    : redisLabel(url);
  return Object.freeze({
    url: url.href,
    label: cluster ? `${where} (cluster)` : where,
    keyPrefix: read('REDIS_KEY_PREFIX', text, 'gateway:'),
    requiredForReady: readyRequiresRedis,
    slowMs: read('REDIS_SLOW_MS', integer(1, 60_000), 250),
    cluster,
    sentinels: sentinels
      ? Object.freeze({ nodes: sentinels, name: sentinelName, password: sentinelPassword })
      : null,
    ca,
  });
}
