// What a subscriber of a shared stream has been handed and not yet read, bounded in bytes:
// - a live query's subscriber keeps only the latest unread answer (an older one is worthless once
//   a newer one exists), so however far behind its client is, it holds one answer;
// - a subscription's subscriber keeps every unread event, up to `maxBytes` (their JSON text) and
//   MAX_UNREAD events; the event that would go past either ends it (fellBehind).
import type { ExecutionResult } from 'graphql';
import { codedError } from '../errors/codes.ts';

/** The most events a subscriber may leave unread, however small. */
export const MAX_UNREAD = 1_000;

export interface BacklogPolicy {
  /** Live queries: a newer answer replaces the unread one. */
  latestOnly: boolean;
  /** Subscriptions: the most bytes of unread events (MAX_SUBSCRIBER_BACKLOG_BYTES). */
  maxBytes: number;
}

/** Until a subscriber joins its stream: no bound on what it cannot yet be handed. */
const UNBOUNDED: BacklogPolicy = { latestOnly: false, maxBytes: Number.POSITIVE_INFINITY };

/** A result's JSON text's length, measured once however many subscribers hold it. */
const sizes = new WeakMap<ExecutionResult, number>();
function sizeOf(result: ExecutionResult): number {
  let size = sizes.get(result);
  if (size === undefined) {
    size = JSON.stringify(result)?.length ?? 0;
    sizes.set(result, size);
  }
  return size;
}

/** The subscription ended: its client did not read its events as fast as they came. */
export const fellBehind = (bytes: number, events: number, maxBytes: number) =>
  codedError(
    'QUERY_TOO_COMPLEX',
    `This subscription's client fell ${events} events (${bytes} bytes) behind, past the limit of ${MAX_UNREAD} events or ${maxBytes} bytes: it reads more slowly than events arrive. It has ended; subscribe again (activityAdded: with \`after\` set to the last entry you received) and read its events as they come.`,
    { measure: 'subscriberBacklog', figure: bytes, limit: maxBytes },
  );

export class Backlog {
  private readonly results: ExecutionResult[] = [];
  private bytes = 0;
  private policy = UNBOUNDED;

  get length(): number {
    return this.results.length;
  }

  /** From the join on: the stream's bound. */
  follow(policy: BacklogPolicy): void {
    this.policy = policy;
  }

  /** Adds `result`; false when it would go past the bound (nothing is added then). */
  add(result: ExecutionResult): boolean {
    if (this.policy.latestOnly) {
      this.results.length = 0;
      this.results.push(result);
      return true;
    }
    const size = Number.isFinite(this.policy.maxBytes) ? sizeOf(result) : 0;
    if (this.results.length >= MAX_UNREAD || this.bytes + size > this.policy.maxBytes) return false;
    this.results.push(result);
    this.bytes += size;
    return true;
  }

  /** Adds what ends the subscriber (a refusal, the reason it fell behind), whatever the bound. */
  addLast(result: ExecutionResult): void {
    this.results.push(result);
  }

  /** The event that would have gone past the bound: why the subscriber ends. */
  overflow(result: ExecutionResult): ExecutionResult {
    const size = sizeOf(result);
    return { errors: [fellBehind(this.bytes + size, this.results.length + 1, this.policy.maxBytes)] };
  }

  shift(): ExecutionResult | undefined {
    const result = this.results.shift();
    if (result && !this.policy.latestOnly && Number.isFinite(this.policy.maxBytes))
      this.bytes -= sizes.get(result) ?? 0;
    return result;
  }

  clear(): void {
    this.results.length = 0;
    this.bytes = 0;
  }
}
