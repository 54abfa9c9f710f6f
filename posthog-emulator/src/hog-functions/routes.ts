// /api/projects/:project_id/hog_functions/ as PostHog serves it in late 2026
// (products/cdp/backend/api/hog_function.py at 0019077, HogFunctionViewSet): retrieve, create,
// update (PATCH/PUT; delete is PATCH {"deleted": true}; DELETE is refused to personal API keys),
// rearrange. Writes leave HogFunction activity. The list: hog-function-list.ts; logs and metrics:
// hog-function-runs.ts; test invocations: hog-function-invocations.ts.
import { notFound, permissionDenied, serverError } from '../http/api-error.ts';
import { CUSTOM_ACTION_REFUSED_2026 } from '../http/auth.ts';
import { hogValidationError, viewValidationError } from './errors.ts';
import { compileOnSave } from './filter-compile.ts';
import { hogChanges, hogSnapshot } from './changes.ts';
import { recordRevision } from './revisions.ts';
import { guardHogFunctionUpdate } from './update-guards.ts';
import { type HogView, serializeHogFunction } from './view.ts';
import { validateHogWrite } from './write.ts';
import { isDict, truthy } from './inputs.ts';
import type { SearchHit } from './search.ts';
import { logHogActivity } from './seed.ts';
import type { HogFunction } from '../model.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';
import { seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';

/** TYPES_WITH_EXECUTION_ORDER. */
const ORDERED_TYPES = ['transformation', 'transformation_log'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The function `:id` names in this project, or null; a deleted one only when `withDeleted`. */
export function findHogFunction(
  { store, project, params }: RouteContext,
  withDeleted = false,
): HogFunction | null {
  const fn = UUID.test(params.id ?? '') ? store.hogFunctions.get(params.id!.toLowerCase()) : undefined;
  if (!fn || fn.projectId !== project.id || fn.type === 'warehouse_source_webhook') return null;
  return fn.deleted && !withDeleted ? null : fn;
}

export function requireHogFunction(ctx: RouteContext, withDeleted = false): HogFunction {
  const fn = findHogFunction(ctx, withDeleted);
  if (!fn) throw notFound();
  return fn;
}

/** How this store answers a function (the test double may leak secrets). */
export const viewOf = (store: Store, full: boolean, searchMatch?: SearchHit['match']): HogView => ({
  full,
  searchMatch,
  leakSecrets: store.leakSecrets,
});

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.retrieve
export function retrieveHogFunction(ctx: RouteContext): Reply {
  return ok(serializeHogFunction(ctx.store, requireHogFunction(ctx), viewOf(ctx.store, true)));
}

// posthog/api/forbid_destroy_model.py, ForbidDestroyModel.destroy (refused first by posthog/permissions.py: not a scoped action)
export function refuseHogFunctionDelete(): Reply {
  throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
}

/** _get_highest_execution_order + 1, among the live functions of that type. */
function nextExecutionOrder(store: Store, projectId: number, type: string): number {
  const orders = [...store.hogFunctions.values()]
    .filter((f) => f.projectId === projectId && f.type === type && !f.deleted)
    .map((f) => f.executionOrder);
  // order_by("-execution_order").first(): Postgres sorts NULLs first when descending, and
  // `highest_order or 0` makes that 0.
  if (orders.includes(null)) return 1;
  return Math.max(0, ...(orders as number[])) + 1;
}

// products/cdp/backend/api/hog_function.py, HogFunctionSerializer.create and HogFunctionViewSet.perform_create
export function createHogFunction(ctx: RouteContext): Reply {
  const { store, project, key } = ctx;
  const outcome = validateHogWrite(ctx.body.data, {
    store,
    projectId: project.id,
    instance: null,
    isCreate: true,
  });
  if ('errors' in outcome) throw hogValidationError(outcome.errors);
  const { fields, template } = outcome;
  const now = store.nowMicros();
  const fn: HogFunction = {
    id: seededUuid(9, store.hogFunctions.size + 1_000 + store.activity.length),
    projectId: project.id,
    type: fields.type,
    name: fields.name ?? null,
    description: fields.description ?? '',
    createdAtMicros: now,
    updatedAtMicros: now,
    createdBy: key.userId,
    enabled: fields.enabled ?? false,
    deleted: fields.deleted ?? false,
    hog: fields.hog!,
    inputsSchema: fields.inputsSchema,
    inputs: fields.inputs,
    filters: fields.filters,
    masking: fields.masking ?? null,
    mappings: fields.mappings ?? null,
    iconUrl: fields.iconUrl ?? null,
    templateId: template?.id ?? null,
    statusState: 0,
    executionOrder: fields.executionOrder ?? null,
    version: 1,
  };
  if (ORDERED_TYPES.includes(fn.type) && fn.executionOrder === null)
    fn.executionOrder = nextExecutionOrder(store, project.id, fn.type);
  compileOnSave(store, fn, true);
  store.hogFunctions.set(fn.id, fn);
  logHogActivity(store, key.userId, fn, 'created', null, now);
  return ok(serializeHogFunction(store, fn, viewOf(store, true)), 201);
}

/** The config fields whose change bumps `version` (DRAFT_CONTENT_FIELDS, compared without derived values). */
function configOf(fn: HogFunction): string {
  const secret = new Set(fn.inputsSchema.filter((s) => s.secret).map((s) => s.key));
  const inputs = Object.fromEntries(
    Object.entries(fn.inputs)
      .filter(([k]) => !secret.has(k))
      .map(([k, v]) => [k, { value: v.value, templating: v.templating }]),
  );
  return JSON.stringify([fn.hog, fn.inputsSchema, inputs, fn.filters, fn.mappings, fn.masking]);
}

// products/cdp/backend/api/hog_function.py, HogFunctionSerializer.update and HogFunctionViewSet.perform_update
export function updateHogFunction(ctx: RouteContext, partial: boolean): Reply {
  const { store, key, project } = ctx;
  const data = ctx.body.data;
  // safely_get_queryset: a deleted function is reachable only by a PATCH {"deleted": false}.
  const fn = requireHogFunction(ctx, partial && data.deleted === false);
  const outcome = validateHogWrite(data, { store, projectId: project.id, instance: fn, isCreate: false });
  if ('errors' in outcome) throw hogValidationError(outcome.errors);
  const { fields } = outcome;
  guardHogFunctionUpdate(fn, data, fields.enabled);
  const before = hogSnapshot(fn);
  if (
    ORDERED_TYPES.includes(fn.type) &&
    ((fn.deleted && fields.deleted === false) ||
      (!fn.enabled && fields.enabled === true && fields.executionOrder === undefined))
  )
    fields.executionOrder = nextExecutionOrder(store, project.id, fn.type);
  if (fields.name !== undefined) fn.name = fields.name;
  if (fields.description !== undefined) fn.description = fields.description;
  if (fields.enabled !== undefined) fn.enabled = fields.enabled;
  if (fields.deleted !== undefined) fn.deleted = fields.deleted;
  if (fields.hog !== undefined) fn.hog = fields.hog;
  fn.inputsSchema = fields.inputsSchema;
  fn.inputs = fields.inputs;
  fn.filters = fields.filters;
  if (fields.masking !== undefined) fn.masking = fields.masking;
  if (fields.mappings !== undefined) fn.mappings = fields.mappings;
  if (fields.iconUrl !== undefined) fn.iconUrl = fields.iconUrl;
  if (fields.executionOrder !== undefined) fn.executionOrder = fields.executionOrder;
  compileOnSave(store, fn, false);
  // A function re-enabled while its state is disabled (3) is set to degraded (2).
  if (fn.enabled && fn.statusState === 3) fn.statusState = 2;
  const now = store.nowMicros();
  if (configOf(before) !== configOf(fn)) {
    fn.version = before.version + 1;
    recordRevision(fn, before, key.userId, now);
  }
  fn.updatedAtMicros = now;
  // perform_update (hog_function.py@0019077) logs with `activity=None` and the row before, a soft
  // delete or restore included: an `updated` entry whose changes name `deleted`.
  const changes = hogChanges(before, fn, store.leakSecrets);
  // log_activity drops an `updated` entry without changes.
  if (changes.length > 0) logHogActivity(store, key.userId, fn, 'updated', changes, now);
  return ok(serializeHogFunction(store, fn, viewOf(store, true)));
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.rearrange
export function rearrangeHogFunctions(ctx: RouteContext): Reply {
  const { store, project, key } = ctx;
  const orders = ctx.body.data.orders;
  if (!truthy(orders)) throw viewValidationError(null, 'No orders provided');
  // orders.keys() on anything but a dict: an unhandled AttributeError.
  if (!isDict(orders)) throw serverError();
  const ids = Object.keys(orders);
  const found = new Map(
    [...store.hogFunctions.values()]
      .filter(
        (f) =>
          ids.includes(f.id) && f.projectId === project.id && ORDERED_TYPES.includes(f.type) && !f.deleted,
      )
      .map((f) => [f.id, f]),
  );
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw viewValidationError(null, `HogFunction with id ${missing} does not exist`);
  const types = new Set([...found.values()].map((f) => f.type));
  if (types.size > 1)
    throw viewValidationError(null, 'Cannot rearrange functions of different types in one request');
  const now = store.nowMicros();
  for (const [id, fn] of found) {
    const order = (orders as Record<string, unknown>)[id];
    if (fn.executionOrder === order) continue;
    const change = { type: 'HogFunction', action: 'changed' as const, field: 'priority' };
    logHogActivity(
      store,
      key.userId,
      fn,
      'updated',
      [{ ...change, before: pyStr(fn.executionOrder), after: pyStr(order) }],
      now,
    );
    fn.executionOrder = Number(order);
    fn.updatedAtMicros = now;
  }
  const [type] = types;
  const all = [...store.hogFunctions.values()]
    .filter((f) => f.projectId === project.id && !f.deleted && f.type === type)
    .sort(
      (a, b) =>
        (a.executionOrder ?? Number.POSITIVE_INFINITY) - (b.executionOrder ?? Number.POSITIVE_INFINITY),
    );
  return ok(all.map((fn) => serializeHogFunction(store, fn, viewOf(store, true))));
}

/** Python's str() of a JSON value, as the rearrange activity writes the orders. */
const pyStr = (v: unknown) => (v === null || v === undefined ? 'None' : String(v));
