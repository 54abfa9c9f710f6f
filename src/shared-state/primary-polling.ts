// One activity poller per key and arguments across the workers of WORKERS > 1 without Redis, as
// shared-polling.ts does through Redis, here through the cluster's primary: it holds each
// poller's lease, the position stored with its last message, and which workers have subscribers
// of it; a message published is sent to each of those workers (the publisher too). A worker that
// exits lets go of its leases (another takes over at its next poll). Bounded: an entry per poller
// some worker has subscribers of, dropped with the last one (the next starts afresh, as a process
// alone does).
import type { Worker } from 'node:cluster';
import type { KeyHash } from '../core/caller-key.ts';
import type { PrimaryService } from './primary-hub.ts';
import { pushTo } from './primary-hub.ts';
import { askPrimary, notePrimary, onPrimaryPush } from './primary-ipc.ts';
import {
  type KeptPosition,
  type PollerLink,
  type PollerMessage,
  type PollingShare,
  pollerId,
} from './shared-polling.ts';

const TOPIC = 'polling';
/** How long a worker waits for the primary: unanswered, it does not poll (or publish) this time. */
const ANSWER_MS = 2_000;

type Question =
  | { op: 'hold'; id: string; leaseMs: number }
  | { op: 'kept'; id: string }
  | { op: 'publish'; id: string; message: PollerMessage };
type Note = { op: 'link' | 'unlink' | 'release'; id: string };

class PrimaryPollerLink implements PollerLink {
  constructor(
    private readonly id: string,
    private readonly onClose: () => boolean,
    readonly joined: KeptPosition | null | undefined,
  ) {}

  async hold(leaseMs: number): Promise<boolean> {
    const question: Question = { op: 'hold', id: this.id, leaseMs };
    return (await askPrimary(TOPIC, question, ANSWER_MS)) === true;
  }

  async kept(): Promise<KeptPosition | null> {
    const question: Question = { op: 'kept', id: this.id };
    const kept = await askPrimary(TOPIC, question, ANSWER_MS);
    if (kept === undefined) throw new Error('the primary did not answer');
    return kept as KeptPosition | null;
  }

  async publish(message: PollerMessage): Promise<void> {
    const question: Question = { op: 'publish', id: this.id, message };
    if ((await askPrimary(TOPIC, question, ANSWER_MS)) !== true)
      throw new Error('the primary did not answer');
  }

  async close(): Promise<void> {
    notePrimary(TOPIC, { op: 'release', id: this.id } satisfies Note);
    // A poller of the same id made since (a subscriber came back) stays linked.
    if (this.onClose()) notePrimary(TOPIC, { op: 'unlink', id: this.id } satisfies Note);
  }
}

/** A worker's side. */
export class PrimaryPolling implements PollingShare {
  private readonly handlers = new Map<string, (message: PollerMessage) => void>();

  constructor() {
    onPrimaryPush(TOPIC, (body) => {
      const { id, message } = body as { id: string; message: PollerMessage };
      this.handlers.get(id)?.(message);
    });
  }

  async link(key: KeyHash, args: unknown, onMessage: (message: PollerMessage) => void): Promise<PollerLink> {
    const id = pollerId(key, args);
    // Asked before linking: the primary pushes every message it publishes after the link.
    const joined = await askPrimary(TOPIC, { op: 'kept', id } satisfies Question, ANSWER_MS);
    this.handlers.set(id, onMessage);
    notePrimary(TOPIC, { op: 'link', id } satisfies Note);
    const unlinked = () => {
      if (this.handlers.get(id) !== onMessage) return false;
      this.handlers.delete(id);
      return true;
    };
    return new PrimaryPollerLink(id, unlinked, joined as KeptPosition | null | undefined);
  }
}

interface Poller {
  holder: number | null;
  leaseUntil: number;
  kept: KeptPosition | null;
  linked: Map<number, Worker>;
}

/** The primary's side: each poller's lease, kept position and linked workers. */
export class PollersAtPrimary implements PrimaryService {
  private readonly pollers = new Map<string, Poller>();

  ask(from: Worker, body: unknown): unknown {
    const question = body as Question;
    const poller = this.pollers.get(question.id);
    if (!poller) return question.op === 'kept' ? null : false;
    if (question.op === 'kept') return poller.kept;
    if (question.op === 'hold') {
      const now = Date.now();
      if (poller.holder !== null && poller.holder !== from.id && poller.leaseUntil > now) return false;
      poller.holder = from.id;
      poller.leaseUntil = now + question.leaseMs;
      return true;
    }
    const { message } = question;
    poller.kept = { seq: message.seq, position: message.position };
    for (const worker of poller.linked.values()) pushTo(worker, TOPIC, { id: question.id, message });
    return true;
  }

  note(from: Worker, body: unknown): void {
    const { op, id } = body as Note;
    let poller = this.pollers.get(id);
    if (op === 'link') {
      if (!poller) {
        poller = { holder: null, leaseUntil: 0, kept: null, linked: new Map() };
        this.pollers.set(id, poller);
      }
      poller.linked.set(from.id, from);
    } else if (poller && op === 'release') {
      if (poller.holder === from.id) poller.holder = null;
    } else if (poller) {
      poller.linked.delete(from.id);
      if (poller.linked.size === 0) this.pollers.delete(id);
    }
  }

  gone(worker: Worker): void {
    for (const [id, poller] of this.pollers) {
      if (poller.holder === worker.id) poller.holder = null;
      poller.linked.delete(worker.id);
      if (poller.linked.size === 0) this.pollers.delete(id);
    }
  }
}
