// What processes share when REDIS_URL is set, connected in one step at start-up: the wake-ups of
// writes, each key's upstream budget, APQ registrations, the per-key subscription cap and one
// activity poller per key and arguments (and, without Redis but with WORKERS > 1, the wake-ups,
// the per-key cap and the pollers through the cluster's primary). Start-up fails, naming
// REDIS_URL, when Redis does not answer.
import cluster from 'node:cluster';
import type { SlotCounter } from '../live/subscription-slots.ts';
import type { WakeBus } from '../live/wake-bus.ts';
import type { KeyBudget } from '../upstream/keys/budget.ts';
import { SharedApqStore } from './apq-store.ts';
import { PrimaryPolling } from './primary-polling.ts';
import { PrimarySlots } from './primary-slots.ts';
import type { RedisSettings, SharedRedis } from './redis.ts';
import { RedisUnavailableError } from './redis-unavailable.ts';
import { SharedBudget } from './shared-budget.ts';
import { type PollingShare, SharedPolling } from './shared-polling.ts';
import { SharedSlots } from './shared-slots.ts';
import { relayWakesThroughPrimary, relayWakesThroughRedis } from './wake-relay.ts';

export interface SharedState {
  redis: SharedRedis;
  apq: SharedApqStore;
  slots: SharedSlots;
  polling: SharedPolling;
  close(): Promise<void>;
}

/**
 * The connection, its module (and ioredis) imported only now: a gateway without REDIS_URL never
 * loads them, nor holds them in its heap.
 */
export async function connectRedis(settings: RedisSettings): Promise<SharedRedis> {
  const { SharedRedis } = await import('./redis.ts');
  return SharedRedis.connect(settings);
}

/** Connects to Redis (null: nothing to connect); throws naming REDIS_URL when it does not answer. */
export async function connectSharedState(
  settings: RedisSettings | null,
  maxSubscriptionsPerKey: number,
): Promise<SharedState | null> {
  if (!settings) return null;
  const redis = await connectRedis(settings);
  const slots = new SharedSlots(redis, maxSubscriptionsPerKey);
  return {
    redis,
    apq: new SharedApqStore(redis),
    slots,
    polling: new SharedPolling(redis),
    async close() {
      slots.close();
      await redis.close();
    },
  };
}

/** What live work counts and polls with the other processes: the slots, one poller per key. */
export interface LiveShares {
  slots: SlotCounter;
  polling: PollingShare;
}

/**
 * Through Redis when there is one; else, in a worker of WORKERS > 1, through the cluster's
 * primary; else null (the process is alone).
 */
export function liveSharesOf(shared: SharedState | null, maxSubscriptionsPerKey: number): LiveShares | null {
  if (shared) return shared;
  if (!cluster.isWorker) return null;
  return { slots: new PrimarySlots(maxSubscriptionsPerKey), polling: new PrimaryPolling() };
}

/** Wake-ups and the budget go through what there is to share them with. */
export async function shareLiveWork(
  shared: SharedState | null,
  wake: WakeBus,
  budget: KeyBudget,
): Promise<void> {
  if (!shared) {
    if (cluster.isWorker) relayWakesThroughPrimary(wake);
    return;
  }
  const { redis } = shared;
  try {
    await relayWakesThroughRedis(wake, redis);
    const sharedBudget = new SharedBudget(redis);
    budget.shareThrough(sharedBudget);
    await sharedBudget.listen(budget);
  } catch {
    // Its channels could not be subscribed to (Redis closed, or went silent, since it answered).
    throw new RedisUnavailableError(
      `REDIS_URL: Redis at ${redis.settings.label} does not answer (it stopped while the gateway started)`,
    );
  }
}
