// An edit routed to a hog function's draft (products/cdp/backend/api/hog_function.py at 0019077,
// HogFunctionViewSet._should_route_to_draft and _write_draft): PostHog stages an agent's config
// edit of an enabled destination instead of applying it. Personal API keys never reach that path,
// so this upstream stages one only when a test asks: POST /__control/hog-function-draft
// {id, fields, userId?} (fields in PostHog's names), validated as the PATCH would be.
import type { ServerResponse } from 'node:http';
import type { ApiError } from '../http/api-error.ts';
import { hogValidationError } from './errors.ts';
import { hogSnapshot } from './changes.ts';
import { DRAFT_CONTENT_FIELDS, splitContentSecrets, writeDraft } from './draft-state.ts';
import { cycleChanges } from './drafts.ts';
import type { HogFields } from './fields.ts';
import { contentOf } from './revisions.ts';
import { viewOf } from './routes.ts';
import { serializeHogFunction } from './view.ts';
import { validateHogWrite } from './write.ts';
import { logHogActivity } from './seed.ts';
import type { HogFunction } from '../model.ts';
import { send } from '../http/send.ts';
import type { UpstreamState } from '../state.ts';
import type { Store } from '../store.ts';

/** A validated field in the draft's (PostHog's) names. */
const validated = (fields: HogFields): Record<string, unknown> => ({
  hog: fields.hog,
  inputs_schema: fields.inputsSchema,
  inputs: fields.inputs,
  filters: fields.filters,
  mappings: fields.mappings,
  masking: fields.masking,
});

/** explicit_secret_input_keys: inputs sent with a value rather than the {"secret": true} marker. */
function explicitKeys(raw: unknown): Set<string> {
  if (!raw || typeof raw !== 'object') return new Set();
  return new Set(
    Object.entries(raw)
      .filter(([, v]) => v && typeof v === 'object' && 'value' in v && !(v as { secret?: unknown }).secret)
      .map(([k]) => k),
  );
}

/** _write_draft: the live config, the staged draft over it, this edit's sent fields last. */
export function stageDraftEdit(store: Store, fn: HogFunction, body: Record<string, unknown>, userId: number) {
  const outcome = validateHogWrite(body, { store, projectId: fn.projectId, instance: fn, isCreate: false });
  if ('errors' in outcome) throw hogValidationError(outcome.errors);
  const sent = DRAFT_CONTENT_FIELDS.filter((f) => Object.hasOwn(body, f));
  const fields = validated(outcome.fields);
  const draft: Record<string, unknown> = { ...contentOf(fn), ...(fn.draft?.content ?? {}) };
  for (const field of sent) if (fields[field] !== undefined) draft[field] = structuredClone(fields[field]);
  const recovered = splitContentSecrets(draft);
  const staged = fn.draft?.secrets ?? {};
  let secrets = staged;
  if (sent.includes('inputs')) {
    // A resent marker recovers the live secret; a secret already staged wins over that.
    const supplied = explicitKeys(body.inputs);
    secrets = Object.fromEntries(
      Object.entries(recovered).map(([k, v]) => [k, supplied.has(k) || !(k in staged) ? v : staged[k]!]),
    );
  }
  const before = hogSnapshot(fn);
  const now = store.nowMicros();
  writeDraft(fn, draft, secrets, now);
  logHogActivity(store, userId, fn, 'draft_updated', cycleChanges(before, fn, store.leakSecrets), now);
}

/** POST /__control/hog-function-draft: stages `fields` on function `id` as an agent's edit would. */
export function handleDraftControl(state: UpstreamState, data: Record<string, unknown>, res: ServerResponse) {
  const fn = state.store.hogFunctions.get(String(data.id ?? '').toLowerCase());
  if (!fn || fn.deleted) return send(res, { status: 404, json: { detail: 'no such hog function' } });
  const fields = (data.fields ?? {}) as Record<string, unknown>;
  try {
    stageDraftEdit(state.store, fn, fields, typeof data.userId === 'number' ? data.userId : 1);
  } catch (error) {
    const refused = error as ApiError;
    return send(res, { status: refused.status ?? 500, json: refused.body?.() ?? {} });
  }
  return send(res, { status: 200, json: serializeHogFunction(state.store, fn, viewOf(state.store, true)) });
}
