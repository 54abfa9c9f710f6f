// /api/projects/:project_id/hog_functions/ as PostHog serves it in late 2026
// (products/cdp/backend/api/hog_function.py): list, retrieve, create, partial update (delete is
// PATCH {"deleted": true}; DELETE is refused to personal API keys), rearrange. Every write leaves
// an activity entry (scope HogFunction). Logs, metrics and test invocations: hog-function-runs.ts.
import { ApiError, notFound, permissionDenied, validationError } from './api-error.ts';
import { CUSTOM_ACTION_REFUSED_2026 } from './auth.ts';
import { serializeHogFunction } from './hog-function-view.ts';
import { HOG_TEMPLATES, logHogActivity } from './hog-seed.ts';
import type { ActivityChange, HogFunction } from './model.ts';
import { limitOffsetPage } from './pagination.ts';
import { ok, type Reply, type RouteContext } from './reply.ts';
import { seededUuid } from './seed.ts';

const TYPES = [
  'destination',
  'site_destination',
  'internal_destination',
  'source_webhook',
  'site_app',
  'transformation',
  'transformation_log',
  'legacy_destination',
];
/** A change to one of these bumps `version`. */
const VERSIONED = new Set(['hog', 'inputs_schema', 'inputs', 'filters', 'mappings', 'masking']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The live function `:id` names in this project; 404 otherwise (a deleted one too). */
export function requireHogFunction({ store, project, params }: RouteContext): HogFunction {
  const fn = UUID.test(params.id ?? '') ? store.hogFunctions.get(params.id!.toLowerCase()) : undefined;
  if (!fn || fn.projectId !== project.id || fn.deleted) throw notFound();
  return fn;
}

/** Execution order ascending (nulls last), then the most recently updated first. */
const listOrder = (a: HogFunction, b: HogFunction) =>
  (a.executionOrder ?? Number.POSITIVE_INFINITY) - (b.executionOrder ?? Number.POSITIVE_INFINITY) ||
  b.updatedAtMicros - a.updatedAtMicros;

export function listHogFunctions({ store, project, url }: RouteContext): Reply {
  const q = url.query;
  const search = q.get('search');
  if (search !== null && search.length > 200)
    throw validationError('search', 'max_length', 'Ensure this field has no more than 200 characters.');
  const types = q.get('type')?.split(',').filter(Boolean);
  const enabled = q.get('enabled');
  const id = q.get('id');
  const createdBy = q.get('created_by');
  const needle = search?.toLowerCase();
  const listed = [...store.hogFunctions.values()]
    .filter((fn) => fn.projectId === project.id && !fn.deleted)
    .filter((fn) => !types?.length || types.includes(fn.type))
    .filter((fn) => enabled === null || String(fn.enabled) === enabled)
    .filter((fn) => id === null || fn.id === id)
    .filter((fn) => createdBy === null || String(fn.createdBy) === createdBy)
    .filter((fn) => !needle || `${fn.name}\n${fn.description}`.toLowerCase().includes(needle))
    .sort(listOrder);
  const page = limitOffsetPage(listed, url);
  const full = q.get('full') === 'true';
  return ok({ ...page, results: page.results.map((fn) => serializeHogFunction(store, fn, full)) });
}

export function retrieveHogFunction(ctx: RouteContext): Reply {
  return ok(serializeHogFunction(ctx.store, requireHogFunction(ctx), true));
}

/** DELETE: PostHog's viewset refuses it to every personal API key; PATCH {"deleted": true} deletes. */
export function refuseHogFunctionDelete(): Reply {
  throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
}

export function createHogFunction(ctx: RouteContext): Reply {
  const { store, project, key } = ctx;
  const data = ctx.body.data;
  const type = data.type === undefined ? 'destination' : data.type;
  if (typeof type !== 'string' || !TYPES.includes(type) || type === 'legacy_destination')
    throw validationError('type', 'invalid_choice', `"${String(type)}" is not a valid choice.`);
  const templateId = data.template_id;
  const found =
    templateId === undefined || templateId === null
      ? undefined
      : HOG_TEMPLATES.find((t) => t.id === templateId);
  if (templateId !== undefined && templateId !== null && !found)
    throw validationError('template_id', 'invalid_input', `No template found for id '${String(templateId)}'`);
  const hog = data.hog ?? found?.hog;
  if (typeof hog !== 'string' || hog === '')
    throw validationError('hog', 'required', 'This field is required.');
  const inputsSchema =
    (data.inputs_schema as HogFunction['inputsSchema'] | undefined) ?? found?.inputs_schema ?? [];
  const inputs = readInputs(inputsSchema, data.inputs, {});
  const now = store.nowMicros();
  const fn: HogFunction = {
    id: seededUuid(9, store.hogFunctions.size + 1_000 + store.activity.length),
    projectId: project.id,
    type,
    name: typeof data.name === 'string' ? data.name : (found?.name ?? ''),
    description: typeof data.description === 'string' ? data.description : (found?.description ?? ''),
    createdAtMicros: now,
    updatedAtMicros: now,
    createdBy: key.userId,
    enabled: data.enabled === true,
    deleted: false,
    hog,
    inputsSchema,
    inputs,
    filters: data.filters ?? null,
    masking: data.masking ?? null,
    mappings: data.mappings ?? null,
    iconUrl: found?.icon_url ?? null,
    templateId: found?.id ?? null,
    statusState: 0,
    executionOrder: null,
    version: 1,
  };
  store.hogFunctions.set(fn.id, fn);
  logHogActivity(store, key.userId, fn, 'created', null, now);
  return ok(serializeHogFunction(store, fn, true), 201);
}

/**
 * The stored inputs after a write: each schema input from `given` (a secret sent as
 * {"secret": true}, or left out, keeps `current`'s value); a required input with no value is 400
 * on `inputs__<key>`.
 */
function readInputs(
  schema: HogFunction['inputsSchema'],
  given: unknown,
  current: HogFunction['inputs'],
): HogFunction['inputs'] {
  const sent = (given ?? {}) as Record<string, { value?: unknown } | undefined>;
  const inputs: HogFunction['inputs'] = {};
  for (const [order, field] of schema.entries()) {
    const input = sent[field.key];
    const keep = input === undefined || (field.secret && (input as { secret?: unknown }).secret === true);
    const value = keep ? current[field.key]?.value : input?.value;
    if (field.required && (value === undefined || value === null || value === ''))
      throw validationError(`inputs__${field.key}`, 'required', 'This field is required.');
    if (value !== undefined) inputs[field.key] = { value, order };
  }
  return inputs;
}

export function updateHogFunction(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  const fn = requireHogFunction(ctx);
  const data = ctx.body.data;
  if (data.type !== undefined && data.type !== fn.type)
    throw validationError('type', 'invalid_input', 'Cannot modify the type of an existing function');
  const changes: ActivityChange[] = [];
  const set = <K extends keyof HogFunction>(field: K, wire: string, value: HogFunction[K]) => {
    if (JSON.stringify(fn[field]) === JSON.stringify(value)) return;
    // PostHog's activity shows execution_order as "priority".
    const shown = wire === 'execution_order' ? 'priority' : wire;
    changes.push({ type: 'HogFunction', action: 'changed', field: shown, before: fn[field], after: value });
    fn[field] = value;
  };
  if (typeof data.name === 'string') set('name', 'name', data.name);
  if (typeof data.description === 'string') set('description', 'description', data.description);
  if (typeof data.enabled === 'boolean') set('enabled', 'enabled', data.enabled);
  if (typeof data.hog === 'string') set('hog', 'hog', data.hog);
  if (Array.isArray(data.inputs_schema))
    set('inputsSchema', 'inputs_schema', data.inputs_schema as HogFunction['inputsSchema']);
  if (data.inputs !== undefined || Array.isArray(data.inputs_schema))
    set('inputs', 'inputs', readInputs(fn.inputsSchema, data.inputs ?? {}, fn.inputs));
  for (const field of ['filters', 'masking', 'mappings'] as const)
    if (data[field] !== undefined) set(field, field, data[field]);
  if (data.execution_order !== undefined)
    set('executionOrder', 'execution_order', data.execution_order as number | null);
  const deleting = data.deleted === true;
  if (deleting) fn.deleted = true;
  if (changes.some((c) => VERSIONED.has(c.field ?? ''))) fn.version++;
  const now = store.nowMicros();
  if (changes.length > 0 || deleting) {
    fn.updatedAtMicros = now;
    logHogActivity(store, key.userId, fn, deleting ? 'deleted' : 'updated', deleting ? null : changes, now);
  }
  return ok(serializeHogFunction(store, fn, true));
}

/** PATCH rearrange/ {"orders": {"<uuid>": n}}: the transformations' order; answers all of them. */
export function rearrangeHogFunctions(ctx: RouteContext): Reply {
  const { store, project, key } = ctx;
  const orders = ctx.body.data.orders;
  if (orders === null || typeof orders !== 'object' || Array.isArray(orders))
    throw validationError('orders', 'required', 'This field is required.');
  const now = store.nowMicros();
  for (const [id, order] of Object.entries(orders)) {
    const fn = store.hogFunctions.get(id);
    if (!fn || fn.projectId !== project.id || fn.deleted || fn.type !== 'transformation') continue;
    if (fn.executionOrder === order) continue;
    const change: ActivityChange = {
      type: 'HogFunction',
      action: 'changed',
      field: 'priority',
      before: fn.executionOrder,
      after: order,
    };
    fn.executionOrder = Number(order);
    fn.updatedAtMicros = now;
    logHogActivity(store, key.userId, fn, 'updated', [change], now);
  }
  const all = [...store.hogFunctions.values()]
    .filter((fn) => fn.projectId === project.id && !fn.deleted && fn.type === 'transformation')
    .sort(listOrder);
  return ok(all.map((fn) => serializeHogFunction(store, fn, true)));
}

export const invalidInvocation = (fields: Record<string, string[]>) => new RawValidationError(fields);

/** A DRF field map answered as it is, not in the usual error shape (the invocations endpoint). */
export class RawValidationError extends ApiError {
  constructor(readonly fields: Record<string, string[]>) {
    super(400, 'validation_error', 'invalid_input', 'Invalid input.');
  }

  override body(): Record<string, unknown> {
    return this.fields;
  }
}
