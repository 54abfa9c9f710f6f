// Latency and fault injection, for tests and benchmarks. Rules are matched against each /api
// request in the order they were added; the first live one that matches acts. A rule may be
// limited to N matches (`times`) or to a share of matching requests (`fraction`).
import type { ServerResponse } from 'node:http';
import { AnswerHeaders } from './answer-headers.ts';

export type FaultAction =
  /** Answer this status (and body) instead of the real one. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Destroy the socket without answering. */
  | { kind: 'reset' }
  /** Answer 200 with a JSON content type and a body that is not JSON. */
  | { kind: 'malformed' }
  /** Wait before answering (slow headers), then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Send the headers and half of the real body, wait, then the rest (slow body). */
  | { kind: 'slow-body'; ms: number };

export interface FaultRule {
  /** A substring of the path, or a regular expression written as `/…/`. */
  path: string;
  method?: string;
  action: FaultAction;
  times?: number;
  fraction?: number;
}

interface LiveRule extends FaultRule {
  id: number;
  matched: number;
}

export interface LatencyOptions {
  latencyMs: number;
  jitterMs: number;
}

export class Faults {
  private rules: LiveRule[] = [];
  private nextId = 1;
  latency: LatencyOptions = { latencyMs: 0, jitterMs: 0 };
  /** Headers added to matching answers (a test control: answer-headers.ts); cleared with the faults. */
  readonly headers = new AnswerHeaders();

  add(rule: FaultRule): number {
    validateRule(rule);
    const id = this.nextId++;
    this.rules.push({ ...rule, id, matched: 0 });
    return id;
  }

  clear(): void {
    this.rules = [];
    this.headers.clear();
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  take(method: string, path: string): FaultAction | undefined {
    for (const rule of this.rules) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (!pathMatches(rule.path, path)) continue;
      if (rule.times !== undefined && rule.matched >= rule.times) continue;
      if (rule.fraction !== undefined && Math.random() >= rule.fraction) continue;
      rule.matched++;
      return rule.action;
    }
    return undefined;
  }

  delayMs(): number {
    const { latencyMs, jitterMs } = this.latency;
    return latencyMs + (jitterMs > 0 ? Math.random() * jitterMs : 0);
  }
}

/** A substring of the path, or a regular expression written as `/…/`, matches it. */
export function pathMatches(pattern: string, path: string): boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    return new RegExp(pattern.slice(1, -1)).test(path);
  }
  return path.includes(pattern);
}

function validateRule(rule: FaultRule): void {
  if (typeof rule?.path !== 'string') throw new TypeError('a fault rule needs a `path` string');
  const kinds = ['status', 'reset', 'malformed', 'delay', 'slow-body'];
  if (!kinds.includes(rule.action?.kind)) {
    throw new TypeError(`a fault rule's action.kind must be one of ${kinds.join(', ')}`);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Writes `body` in two halves with a pause between, after the headers went out. */
export async function writeSlowly(res: ServerResponse, body: string, pauseMs: number): Promise<void> {
  const half = Math.floor(body.length / 2);
  res.flushHeaders();
  res.write(body.slice(0, half));
  await sleep(pauseMs);
  if (!res.destroyed) res.end(body.slice(half));
}
