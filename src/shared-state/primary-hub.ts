// The cluster's primary (workers.ts) answering its workers, WORKERS > 1 without Redis: each
// topic's service counts what the workers share (primary-slots.ts, primary-polling.ts), and forgets
// what a worker held when it exits.
import cluster, { type Worker } from 'node:cluster';
import { isNote, isQuestion, type PrimaryAnswer, type PrimaryPush } from './primary-ipc.ts';

export interface PrimaryService {
  /** A worker's question: what it is answered. */
  ask?(from: Worker, body: unknown): unknown;
  /** A worker's note: nothing answered. */
  note?(from: Worker, body: unknown): void;
  /** The worker exited: what it held is given back. */
  gone(worker: Worker): void;
}

/** Sends `body` on `topic` to `worker`, if it is still there. */
export function pushTo(worker: Worker, topic: string, body: unknown): void {
  if (!worker.isConnected()) return;
  const push: PrimaryPush = { gatewayPush: { topic, body } };
  worker.send(push);
}

export function servePrimary(services: Record<string, PrimaryService>): void {
  cluster.on('message', (from, message: unknown) => {
    if (isQuestion(message)) {
      const { topic, id, body } = message.gatewayAsk;
      const service = services[topic];
      if (!service?.ask || !from.isConnected()) return;
      const answer: PrimaryAnswer = { gatewayAnswer: { id, body: service.ask(from, body) } };
      from.send(answer);
    } else if (isNote(message)) {
      services[message.gatewayNote.topic]?.note?.(from, message.gatewayNote.body);
    }
  });
  cluster.on('exit', (worker) => {
    for (const service of Object.values(services)) service.gone(worker);
  });
}
