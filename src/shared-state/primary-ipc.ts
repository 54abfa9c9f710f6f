// A worker of WORKERS > 1 without Redis asks the cluster's primary (workers.ts) what the workers
// count together, over IPC: a question with a number, answered once with that number; a note
// that needs no answer; and what the primary pushes to the worker (a poller's message). A
// question unanswered within its time (the primary gone, or busy) answers undefined: the worker
// then does as a process alone would.
import cluster from 'node:cluster';

export interface PrimaryQuestion {
  gatewayAsk: { topic: string; id: number; body: unknown };
}
export interface PrimaryAnswer {
  gatewayAnswer: { id: number; body: unknown };
}
export interface PrimaryNote {
  gatewayNote: { topic: string; body: unknown };
}
/** From the primary to a worker. */
export interface PrimaryPush {
  gatewayPush: { topic: string; body: unknown };
}

const has = (message: unknown, field: string): boolean =>
  typeof message === 'object' && message !== null && field in message;
export const isQuestion = (m: unknown): m is PrimaryQuestion => has(m, 'gatewayAsk');
export const isNote = (m: unknown): m is PrimaryNote => has(m, 'gatewayNote');
const isAnswer = (m: unknown): m is PrimaryAnswer => has(m, 'gatewayAnswer');
const isPush = (m: unknown): m is PrimaryPush => has(m, 'gatewayPush');

/** Whether this process is a worker whose primary can be asked. */
export const primaryReachable = (): boolean => cluster.isWorker && process.connected && !!process.send;

const waiting = new Map<number, (body: unknown) => void>();
const pushed = new Map<string, (body: unknown) => void>();
let lastId = 0;
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (isAnswer(message)) {
      const answer = waiting.get(message.gatewayAnswer.id);
      waiting.delete(message.gatewayAnswer.id);
      answer?.(message.gatewayAnswer.body);
    } else if (isPush(message)) {
      pushed.get(message.gatewayPush.topic)?.(message.gatewayPush.body);
    }
  });
}

/**
 * The primary's answer; undefined when it did not come within `withinMs`. `late` is handed an
 * answer that came after that (so that what it granted can be given back).
 */
export function askPrimary(
  topic: string,
  body: unknown,
  withinMs: number,
  late?: (body: unknown) => void,
): Promise<unknown> {
  if (!primaryReachable()) return Promise.resolve(undefined);
  listen();
  const id = ++lastId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (late) waiting.set(id, late);
      else waiting.delete(id);
      resolve(undefined);
    }, withinMs);
    timer.unref();
    waiting.set(id, (body) => {
      clearTimeout(timer);
      resolve(body);
    });
    const question: PrimaryQuestion = { gatewayAsk: { topic, id, body } };
    try {
      process.send?.(question);
    } catch {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(undefined);
    }
  });
}

export function notePrimary(topic: string, body: unknown): void {
  if (!primaryReachable()) return;
  const note: PrimaryNote = { gatewayNote: { topic, body } };
  try {
    process.send?.(note);
  } catch {
    // The primary is gone: the worker is about to be too.
  }
}

/** What the primary pushes on `topic` goes to `handler` from now on. */
export function onPrimaryPush(topic: string, handler: (body: unknown) => void): void {
  listen();
  pushed.set(topic, handler);
}
