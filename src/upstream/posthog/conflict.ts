// PostHog's 409s (products/cdp/backend/api/hog_function.py@0019077: stale_update, draft_exists) as
// CONFLICT: what the caller saw is no longer what is stored. `extensions.reason` is STALE_UPDATE or
// DRAFT_EXISTS, and the message says, in this API's terms, what to read again or which argument
// to set. A conflict is an answer about the data, not the key: never retried, never pauses the key.
import type { GraphQLError } from 'graphql';
import { codedError } from '../../errors/codes.ts';

const PUBLISH = /\/publish\/$/;

const STALE_PUBLISH =
  'The hog function changed since the publish was previewed (its draft or its live config): call previewHogFunctionPublish again to see what a publish would change now, and pass its new confirmToken.';
const STALE_UPDATE =
  'The hog function changed since you read it: read it again (HogFunction.updatedAt) and send that as baseUpdatedAt, after checking that your change still applies.';
const DRAFT_EXISTS =
  'The hog function already has a staged draft (HogFunction.draft): publish it (publishHogFunctionDraft) or discard it (discardHogFunctionDraft) first, or set overwrite: true to replace it with this revision.';
const OTHER =
  'The upstream refused because what it stores changed since it was read: read it again and retry.';

export function conflictError(
  call: { method: string; path: string },
  upstreamCode: string | null,
  upstream: { status: number; code: string | null },
): GraphQLError {
  if (upstreamCode === 'draft_exists')
    return codedError('CONFLICT', DRAFT_EXISTS, { upstream, reason: 'DRAFT_EXISTS' });
  if (upstreamCode === 'stale_update')
    return codedError('CONFLICT', PUBLISH.test(call.path) ? STALE_PUBLISH : STALE_UPDATE, {
      upstream,
      reason: 'STALE_UPDATE',
    });
  return codedError('CONFLICT', OTHER, { upstream });
}
