// A kept answer as each reader gets it, and which failures a kept answer may stand in for.
import { malformedUpstreamBody } from '../../errors/codes.ts';
import type { CallerOptions, UpstreamCall, UpstreamResponse } from '../call.ts';
import { decodeUtf8 } from '../wire/answer-body.ts';
import type { KeptAnswer } from './shelf.ts';

/** What an upstream error says of the upstream: 429, 5xx or no answer in time may be served stale. */
const STALE_CODES = new Set(['RATE_LIMITED', 'UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT']);

export function upstreamFault(error: unknown): boolean {
  const extensions = (error as { extensions?: Record<string, unknown> } | null)?.extensions;
  if (!STALE_CODES.has(String(extensions?.code))) return false;
  const status = (extensions?.upstream as { status?: number } | undefined)?.status;
  return status === undefined || status === 429 || status >= 500;
}

/** A failure of the caller's own limits, not of the read: budget refusal, the request's call limit. */
export function callersOwn(error: unknown): boolean {
  const extensions = (error as { extensions?: Record<string, unknown> } | null)?.extensions;
  return extensions?.budget === true || extensions?.reason === 'UPSTREAM_DATA_TOO_LARGE';
}

/** An upstream answer as kept: its bytes copied once, so it holds no socket's buffer. */
export function keptOf(response: UpstreamResponse, at: number): KeptAnswer {
  const { status, contentType, chunks, deprecation = null } = response;
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return { status, contentType, body, deprecation, at };
}

/**
 * A kept (or joined) answer as `call` asks it, its body parsed anew so that no reader shares
 * another's objects; `caller` is told of its route's end as the one that read it was.
 */
export function served(kept: KeptAnswer, call: UpstreamCall, caller: CallerOptions): UpstreamResponse {
  const { status, contentType, body, deprecation } = kept;
  if (deprecation) caller.onKeptDeprecation?.(call.path, deprecation);
  const chunks = [body];
  if (call.parseAnswer === false) return { status, contentType, body: null, chunks, deprecation };
  const text = decodeUtf8(chunks);
  if (text.length === 0 || !/\bjson\b/i.test(contentType))
    return { status, contentType, body: text || null, chunks, deprecation };
  try {
    return { status, contentType, body: JSON.parse(text), chunks, deprecation };
  } catch {
    throw malformedUpstreamBody();
  }
}
