// A test control, not a PostHog fact: headers added to the answers of the /api paths a rule
// matches (whatever their status), such as the `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and
// `Link: <…>; rel="sunset"` a route that is going would carry. PostHog sends none of these on the
// routes served here: its one deprecation is of /api/environments/* (posthog/middleware.py@003f61b,
// EnvironmentsRewriteMiddleware: `Deprecation: true`, an HTTP-date `Sunset`, a successor `Link`).
// Every matching rule adds its headers, in the order added (a later one wins a name).
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { pathMatches } from './faults.ts';

export interface AnswerHeadersRule {
  /** A substring of the path, or a regular expression written as `/…/` (as a fault's). */
  path: string;
  method?: string;
  headers: Record<string, string>;
}

const MAX_RULES = 100;

export class AnswerHeaders {
  private rules: (AnswerHeadersRule & { id: number })[] = [];
  private nextId = 1;

  /** Throws a TypeError for a rule that is not one (the control answers 400). */
  add(rule: AnswerHeadersRule): number {
    validateRule(rule);
    if (this.rules.length >= MAX_RULES) throw new TypeError(`at most ${MAX_RULES} answer-header rules`);
    const id = this.nextId++;
    this.rules.push({ path: rule.path, method: rule.method, headers: { ...rule.headers }, id });
    return id;
  }

  clear(): void {
    this.rules = [];
  }

  list(): readonly AnswerHeadersRule[] {
    return this.rules;
  }

  /** The headers to add to the answer of this request; null when no rule matches. */
  for(method: string, path: string): Record<string, string> | null {
    let headers: Record<string, string> | null = null;
    for (const rule of this.rules) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (!pathMatches(rule.path, path)) continue;
      headers = Object.assign(headers ?? {}, rule.headers);
    }
    return headers;
  }
}

function validateRule(rule: AnswerHeadersRule): void {
  if (typeof rule?.path !== 'string') throw new TypeError('an answer-header rule needs a `path` string');
  if (rule.method !== undefined && typeof rule.method !== 'string')
    throw new TypeError('the `method` of an answer-header rule is a string');
  const headers = rule.headers;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers))
    throw new TypeError('an answer-header rule needs `headers`, an object of strings');
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new TypeError(`header ${name}: its value is a string`);
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch (error) {
      throw new TypeError(`header ${name}: ${(error as Error).message}`);
    }
  }
}
