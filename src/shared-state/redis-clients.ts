// The ioredis clients of REDIS_URL's settings (config/redis.ts): a Redis for one server or the
// master Sentinels name, a Cluster for REDIS_CLUSTER. Each fails fast while Redis is lost (no
// offline queue, no retried request, SILENT_REDIS_MS of silence counted a loss) and reconnects on
// its own: a Sentinel-managed client asks the Sentinels for the master again each time, so it
// follows a failover (Redis closes its clients' connections when it changes role, and a master
// gone silent is counted lost after SILENT_REDIS_MS). `rediss://` speaks TLS, trusting Node's
// roots and REDIS_CA_FILE's certificates.
import { rootCertificates } from 'node:tls';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { SILENT_REDIS_MS } from './silent-redis.ts';

/** A connection to one server (or master), or to a cluster: the same commands on either. */
export type RedisClient = Redis | Cluster;

export interface RedisTopology {
  url: string;
  keyPrefix: string;
  /** REDIS_CLUSTER: the URL's host is a seed node of a Redis Cluster. */
  cluster?: boolean;
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME: the master is asked of these. */
  sentinels?: { nodes: { host: string; port: number }[]; name: string; password?: string | null } | null;
  /** REDIS_CA_FILE's certificates (PEM). */
  ca?: string | null;
}

/** How long start-up waits for Redis before it fails. */
export const CONNECT_TIMEOUT_MS = 3_000;
/** Reconnection attempts are spaced up to this. */
const MAX_RECONNECT_DELAY_MS = 1_000;
const retry = (times: number) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS);

/** The URL's host, without the brackets of an IPv6 address. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** What every connection takes: the URL's credentials and database, TLS, fast failure. */
function connectionOptions(settings: RedisTopology): RedisOptions {
  const url = new URL(settings.url);
  // Each connection checks the certificate against the host it connects to (a cluster's node, the
  // master a Sentinel names).
  const tls =
    url.protocol === 'rediss:'
      ? { ca: settings.ca ? [...rootCertificates, settings.ca] : undefined }
      : undefined;
  const db = Number(url.pathname.slice(1) || '0');
  return {
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls,
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    socketTimeout: SILENT_REDIS_MS,
    retryStrategy: retry,
  };
}

/**
 * A client of the settings' Redis, not connected yet. `sharded`: a Cluster client subscribes
 * with SSUBSCRIBE, each channel on the master of its slot.
 */
export function makeClient(settings: RedisTopology, sharded = false): RedisClient {
  const options = connectionOptions(settings);
  const url = new URL(settings.url);
  const seed = { host: hostOf(url), port: Number(url.port || 6379) };
  if (settings.cluster) {
    const { lazyConnect, enableOfflineQueue, retryStrategy, ...redisOptions } = options;
    return new Cluster([seed], {
      lazyConnect,
      enableOfflineQueue,
      keyPrefix: settings.keyPrefix,
      redisOptions: { ...redisOptions, db: 0 },
      clusterRetryStrategy: retryStrategy,
      clusterNodeRetryStrategy: retryStrategy,
      shardedSubscribers: sharded,
      slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
    });
  }
  if (settings.sentinels) {
    return new Redis({
      ...options,
      keyPrefix: settings.keyPrefix,
      sentinels: settings.sentinels.nodes,
      name: settings.sentinels.name,
      sentinelPassword: settings.sentinels.password ?? undefined,
      role: 'master',
      enableTLSForSentinelMode: options.tls !== undefined,
      sentinelTLS: options.tls,
      sentinelRetryStrategy: retry,
    });
  }
  return new Redis({ ...options, ...seed, keyPrefix: settings.keyPrefix });
}
