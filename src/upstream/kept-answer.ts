// One answer kept by kept-answers.ts: what it holds (its bytes once, its head's notice of the
// route's end, where and when it was kept) and how it answers a later call.
import { malformedUpstreamBody } from '../errors/codes.ts';
import type { CallerOptions, UpstreamCall, UpstreamResponse } from './call.ts';
import type { UpstreamDeprecation } from './deprecation.ts';
import { decodeUtf8 } from './wire/answer-body.ts';

/** Where a GET's answer is kept, and what was known of its project when the read began. */
export interface Place {
  id: string;
  project: string;
  generation: number;
  everything: number;
}

export interface Kept {
  status: number;
  contentType: string;
  chunks: readonly Buffer[];
  deprecation: UpstreamDeprecation | null;
  at: number;
  place: Place;
}

export const byteLength = (kept: Kept) => kept.chunks.reduce((sum, chunk) => sum + chunk.length, 0);

/** A kept (or joined) answer for `caller`, told of its route's end as its reader was. */
export function served(kept: Kept, call: UpstreamCall, caller: CallerOptions): UpstreamResponse {
  const answer = answerOf(kept, call);
  if (kept.deprecation) caller.onKeptDeprecation?.(call.path, kept.deprecation);
  return answer;
}

/** A kept answer as the call asks it: its body parsed anew, so no reader shares another's objects. */
function answerOf(kept: Kept, call: UpstreamCall): UpstreamResponse {
  const { status, contentType, chunks, deprecation } = kept;
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
