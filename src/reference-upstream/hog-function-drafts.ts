// The hog function draft cycle and masked_secrets (products/cdp/backend/api/hog_function.py at
// 0019077), as far as the reference upstream has them: no function here ever has a staged draft
// (only agent callers stage them, and personal API keys are not agents), so publish always finds
// nothing to publish and discard_draft is the idempotent no-op.
import { type ErrorTree, fieldError, hogValidationError, viewValidationError } from './hog-errors.ts';
import { readBoolean } from './hog-function-fields.ts';
import { requireHogFunction, viewOf } from './hog-function-routes.ts';
import { serializeHogFunction } from './hog-function-view.ts';
import { MASKED_SECRET_VALUE } from './hog-inputs.ts';
import { ok, type Reply, type RouteContext } from './reply.ts';

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.publish
export function publishHogFunction(ctx: RouteContext): Reply {
  const data = ctx.body.data;
  // HogFunctionPublishRequestSerializer, checked before the function is looked up.
  const errors: ErrorTree = {};
  if (data.confirm !== undefined) {
    const confirm = readBoolean(data.confirm);
    if (typeof confirm !== 'boolean') errors.confirm = [confirm];
  }
  if (data.confirm_token !== undefined && typeof data.confirm_token !== 'string')
    errors.confirm_token = [fieldError('Not a valid string.')];
  if (Object.keys(errors).length > 0) throw hogValidationError(errors);
  requireHogFunction(ctx);
  throw viewValidationError(null, 'This function has no staged draft to publish.');
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.discard_draft (nothing staged: no activity)
export function discardHogFunctionDraft(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  return ok(serializeHogFunction(ctx.store, fn, viewOf(ctx.store, true)));
}

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
      input_keys: fn.inputsSchema
        .filter((s) => s.secret && fn.inputs[s.key]?.value === MASKED_SECRET_VALUE)
        .map((s) => s.key)
        .sort(),
      draft_input_keys: [] as string[],
    }))
    .filter((entry) => entry.input_keys.length > 0);
  return ok(affected);
}
