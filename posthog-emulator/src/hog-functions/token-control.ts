// POST /__control/hog-function-publish-token {id, ageSeconds} (tests only): the confirm token the
// publish preview (products/cdp/backend/api/hog_function.py@0019077, HogFunctionViewSet.publish
// with confirm=false) would have handed `ageSeconds` ago, signed over the function as it is now,
// so a test sees PUBLISH_CONFIRM_TOKEN_MAX_AGE (15 minutes) pass without waiting it.
import type { ServerResponse } from 'node:http';
import { mintConfirmToken } from './confirm-token.ts';
import { send } from '../http/send.ts';
import type { UpstreamState } from '../state.ts';

/** Answers {confirm_token}; 404 for no such function, 400 for no staged draft or a bad age. */
export function handleConfirmTokenControl(
  state: UpstreamState,
  data: Record<string, unknown>,
  res: ServerResponse,
) {
  const fn = state.store.hogFunctions.get(String(data.id ?? '').toLowerCase());
  if (!fn || fn.deleted) return send(res, { status: 404, json: { detail: 'no such hog function' } });
  // The preview itself refuses a function with nothing staged.
  if (!fn.draft) return send(res, { status: 400, json: { detail: 'no staged draft to publish' } });
  const age = data.ageSeconds;
  if (typeof age !== 'number' || !Number.isInteger(age) || age < 0)
    return send(res, { status: 400, json: { detail: 'ageSeconds is a whole number of seconds, 0 or more' } });
  const signedAt = Math.floor(Date.now() / 1000) - age;
  return send(res, { status: 200, json: { confirm_token: mintConfirmToken(fn, signedAt) } });
}
