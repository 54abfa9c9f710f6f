// WORKERS > 1: this process supervises that many worker processes (node:cluster), each a whole
// gateway listening on the shared port, so one gateway uses every core. Queries share nothing:
// ids and cursors carry everything they need, and loaders live for one request. What live work
// shares goes through Redis when REDIS_URL is set; without it, a write's wake-up is passed on
// here, to every other worker (shared-state/wake-relay.ts), and the workers count each key's
// subscription slots and share its activity pollers here (shared-state/primary-slots.ts,
// shared-state/primary-polling.ts). The embedded reference upstream,
// when there is one, runs once, here.
//
// SIGTERM or SIGINT: every worker drains its in-flight requests and exits (main.ts), then this
// process exits 0. A worker that dies any other way is replaced.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { servePrimary } from './shared-state/primary-hub.ts';
import { PollersAtPrimary } from './shared-state/primary-polling.ts';
import { SlotsAtPrimary } from './shared-state/primary-slots.ts';
import { isClusterWake } from './shared-state/wake-relay.ts';

export interface SupervisorOptions {
  count: number;
  /** Added to each worker's environment (the embedded upstream's URL, the demo key). */
  env: Record<string, string>;
  logger: Logger;
  /** After the last worker has exited on shutdown: close what this process holds. */
  close: () => Promise<void>;
}

export function superviseWorkers({ count, env, logger, close }: SupervisorOptions): void {
  let stopping = false;
  const fork = (): Worker => cluster.fork(env);
  for (let i = 0; i < count; i++) fork();
  servePrimary({ slots: new SlotsAtPrimary(), polling: new PollersAtPrimary() });

  cluster.on('message', (from, message: unknown) => {
    if (!isClusterWake(message)) return;
    for (const worker of Object.values(cluster.workers ?? {}))
      if (worker && worker !== from && worker.isConnected()) worker.send(message);
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        void close().then(() => {
          logger.info('stopped');
          logger.flush();
          process.exit(0);
        });
      }
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: count }, 'shutting down workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => shutdown(signal));
}
