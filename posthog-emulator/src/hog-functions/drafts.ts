// Publishing and discarding a hog function's staged draft, and masked_secrets
// (products/cdp/backend/api/hog_function.py at 0019077). Publish is two steps for every caller:
// without `confirm` it previews (changed_fields and a confirm_token) and changes nothing; with it
// the draft becomes the live config (a new version and revision when the config changed), and an
// enabled function needs the preview's token. The draft itself: hog-function-draft-state.ts.
import { type ErrorTree, fieldError, hogValidationError, viewValidationError } from './errors.ts';
import { hogChanges, hogSnapshot } from './changes.ts';
import { mintConfirmToken, publishConfirmValue, unsignConfirmToken } from './confirm-token.ts';
import { staleUpdate } from './conflicts.ts';
import {
  clearDraft,
  draftChangedFields,
  draftChanges,
  draftUpdatedAt,
  liveSecrets,
  sameContent,
} from './draft-state.ts';
import { readBoolean } from './fields.ts';
import { contentOf, recordRevision } from './revisions.ts';
import { requireHogFunction, viewOf } from './routes.ts';
import { serializeHogFunction } from './view.ts';
import { MASKED_SECRET_VALUE } from './inputs.ts';
import { logHogActivity } from './seed.ts';
import type { ActivityChange, HogFunction, HogInput, HogInputSchema } from '../model.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';

/** HogFunctionPublishRequestSerializer: {confirm: bool = false, confirm_token?: str}. */
function readPublishRequest(data: Record<string, unknown>): boolean {
  const errors: ErrorTree = {};
  let confirm = false;
  if (data.confirm !== undefined) {
    const read = readBoolean(data.confirm);
    if (typeof read !== 'boolean') errors.confirm = [read];
    else confirm = read;
  }
  if (data.confirm_token !== undefined && typeof data.confirm_token !== 'string')
    errors.confirm_token = [fieldError('Not a valid string.')];
  if (Object.keys(errors).length > 0) throw hogValidationError(errors);
  return confirm;
}

/** The staged config made live: the draft's secrets over the live ones (publish's encrypted_inputs merge). */
function applyDraft(fn: HogFunction): void {
  const content = fn.draft!.content;
  const secrets: Record<string, HogInput> = { ...liveSecrets(fn), ...(fn.draft!.secrets ?? {}) };
  fn.hog = content.hog as string;
  fn.inputsSchema = (content.inputs_schema ?? []) as HogInputSchema[];
  const secretKeys = new Set(fn.inputsSchema.filter((s) => s.secret).map((s) => s.key));
  const kept = Object.entries(secrets).filter(([k]) => secretKeys.has(k));
  fn.inputs = { ...((content.inputs ?? {}) as Record<string, HogInput>), ...Object.fromEntries(kept) };
  fn.filters = content.filters ?? {};
  fn.mappings = content.mappings ?? null;
  fn.masking = content.masking ?? null;
}

/** An activity entry's changes for the cycle: the live fields and the draft's. */
export const cycleChanges = (before: HogFunction, after: HogFunction, leak: boolean): ActivityChange[] => [
  ...hogChanges(before, after, leak),
  ...draftChanges(before.draft ?? null, after.draft ?? null, leak),
];

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.publish
export function publishHogFunction(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  const confirm = readPublishRequest(ctx.body.data);
  const fn = requireHogFunction(ctx);
  if (!fn.draft) throw viewValidationError(null, 'This function has no staged draft to publish.');
  if (!confirm)
    return ok({
      published: false,
      draft_updated_at: draftUpdatedAt(fn),
      confirm_token: mintConfirmToken(fn),
      changed_fields: draftChangedFields(fn),
      function: null,
    });
  // A disabled function processes nothing: it publishes without the preview's token.
  if (fn.enabled && unsignConfirmToken(ctx.body.data.confirm_token) !== publishConfirmValue(fn))
    throw staleUpdate();
  const before = hogSnapshot(fn);
  applyDraft(fn);
  const now = store.nowMicros();
  if (!sameContent(contentOf(before), contentOf(fn))) {
    fn.version = before.version + 1;
    recordRevision(fn, before, key.userId, now);
  }
  fn.updatedAtMicros = now;
  clearDraft(fn);
  logHogActivity(store, key.userId, fn, 'published', cycleChanges(before, fn, store.leakSecrets), now);
  return ok({
    published: true,
    draft_updated_at: null,
    confirm_token: null,
    changed_fields: null,
    function: serializeHogFunction(store, fn, viewOf(store, true)),
  });
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.discard_draft (idempotent: nothing
// staged changes nothing and logs nothing)
export function discardHogFunctionDraft(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  const fn = requireHogFunction(ctx);
  if (fn.draft) {
    const before = hogSnapshot(fn);
    clearDraft(fn);
    const changes = cycleChanges(before, fn, store.leakSecrets);
    logHogActivity(store, key.userId, fn, 'draft_discarded', changes, store.nowMicros());
  }
  return ok(serializeHogFunction(store, fn, viewOf(store, true)));
}

const maskedKeys = (schema: HogInputSchema[], inputs: Record<string, HogInput>) =>
  schema
    .filter((s) => s.secret && inputs[s.key]?.value === MASKED_SECRET_VALUE)
    .map((s) => s.key)
    .sort();

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.masked_secrets
export function maskedSecrets({ store, project }: RouteContext): Reply {
  const affected = [...store.hogFunctions.values()]
    .filter((fn) => fn.projectId === project.id && !fn.deleted && fn.type !== 'warehouse_source_webhook')
    .sort((a, b) => b.updatedAtMicros - a.updatedAtMicros)
    .map((fn) => ({
      id: fn.id,
      name: fn.name ?? '',
      type: fn.type,
      enabled: fn.enabled,
      input_keys: maskedKeys(fn.inputsSchema, fn.inputs),
      draft_input_keys: maskedKeys(
        (fn.draft?.content.inputs_schema ?? []) as HogInputSchema[],
        fn.draft?.secrets ?? {},
      ),
    }))
    .filter((entry) => entry.input_keys.length > 0 || entry.draft_input_keys.length > 0);
  return ok(affected);
}
