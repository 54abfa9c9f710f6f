// How a write's wake-up reaches the other processes (live/wake-bus.ts):
// - with Redis: published on the `wake` channel; every process but the writer's hands it on;
// - WORKERS > 1 without Redis: sent to the cluster's primary over IPC, which sends it to every
//   other worker (workers.ts);
// - otherwise there is no other process, and no relay.
// A message holds the key's hash and what was written (project, config), never a key.
import cluster from 'node:cluster';
import type { KeyHash } from '../core/caller-key.ts';
import type { WakeBus } from '../live/wake-bus.ts';
import type { Resource } from '../upstream/posthog/paths.ts';
import type { SharedRedis } from './redis.ts';

interface WakeMessage {
  from: string;
  key: KeyHash;
  written: Resource;
}

/** The IPC message a worker sends its primary, and the primary every other worker. */
export interface ClusterWakeMessage {
  gatewayWake: { key: KeyHash; written: Resource };
}

export const isClusterWake = (message: unknown): message is ClusterWakeMessage =>
  typeof message === 'object' && message !== null && 'gatewayWake' in message;

const isResource = (value: unknown): value is Resource =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Resource).projectId === 'string' &&
  ((value as Resource).configId === null || typeof (value as Resource).configId === 'number');

export async function relayWakesThroughRedis(bus: WakeBus, redis: SharedRedis): Promise<void> {
  const channel = redis.channel('wake');
  redis.onMessage((from, text) => {
    if (from !== channel) return;
    let message: WakeMessage;
    try {
      message = JSON.parse(text) as WakeMessage;
    } catch {
      return;
    }
    if (message.from === redis.processId || typeof message.key !== 'string' || !isResource(message.written))
      return;
    bus.deliver(message.key, message.written);
  });
  await redis.subscribe(channel);
  bus.relayThrough({
    publish(key, written) {
      const message: WakeMessage = { from: redis.processId, key, written };
      // Redis lost: the other processes see the change at their next poll.
      redis.publish(channel, JSON.stringify(message)).catch(() => undefined);
    },
  });
}

/** A worker of WORKERS > 1 without Redis: wakes go through the primary. */
export function relayWakesThroughPrimary(bus: WakeBus): void {
  if (!cluster.isWorker || !process.send) return;
  process.on('message', (message: unknown) => {
    if (!isClusterWake(message) || !isResource(message.gatewayWake.written)) return;
    bus.deliver(message.gatewayWake.key, message.gatewayWake.written);
  });
  bus.relayThrough({
    publish(key, written) {
      const message: ClusterWakeMessage = { gatewayWake: { key, written } };
      process.send?.(message);
    },
  });
}
