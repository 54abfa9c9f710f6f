// A write to a hog function, validated as HogFunctionSerializer does it
// (products/cdp/backend/api/hog_function.py at 0019077): `to_internal_value` fills what the body
// leaves out from the stored function (or, on create, the template), the fields are read one by
// one (hog-function-fields.ts), then `validate` applies the type rules, the caps and the sizes.
import { type ErrorTree, fieldError } from './errors.ts';
import { refuseUncompilableFilters } from './filter-compile.ts';
import {
  HOG_FUNCTION_TYPES,
  type HogFields,
  readBoolean,
  readInputs,
  readMappings,
  readMasking,
  readOrder,
  readSchema,
  readText,
  take,
} from './fields.ts';
import { HOG_TEMPLATES, humanisedType } from './seed.ts';
import type { HogFunction, HogFunctionTemplate, HogInput, HogInputSchema } from '../model.ts';
import type { Store } from '../store.ts';

const MAX_HOG_CODE_SIZE_BYTES = 100 * 1024;
/** MAX_ENABLED_FUNCTIONS_PER_TEAM_BY_TYPE. */
const ENABLED_CAPS: Record<string, number> = { transformation: 20, transformation_log: 5 };

export interface WriteContext {
  store: Store;
  projectId: number;
  /** The stored function (update, or an invocation of a saved one); null on create or `new`. */
  instance: HogFunction | null;
  isCreate: boolean;
}

export type WriteOutcome =
  | { fields: HogFields; template: HogFunctionTemplate | null }
  | { errors: ErrorTree };

const has = (data: Record<string, unknown>, key: string) => Object.hasOwn(data, key);

/** to_internal_value's defaults: the stored function's config, or on create the template's. */
function withDefaults(
  body: Record<string, unknown>,
  ctx: WriteContext,
): { errors: ErrorTree } | { data: Record<string, unknown>; template: HogFunctionTemplate | null } {
  const { instance } = ctx;
  const data: Record<string, unknown> = { ...body };
  data.type = has(body, 'type') ? body.type : (instance?.type ?? 'destination');
  data.template_id = instance ? instance.templateId : body.template_id;
  data.inputs_schema = has(body, 'inputs_schema') ? body.inputs_schema : (instance?.inputsSchema ?? []);
  data.inputs = has(body, 'inputs') ? body.inputs : instance ? plainInputs(instance) : {};
  data.filters = (has(body, 'filters') ? body.filters : (instance?.filters ?? {})) || {};
  let template: HogFunctionTemplate | null = null;
  if (data.template_id) {
    template = HOG_TEMPLATES.find((t) => t.id === data.template_id) ?? null;
    if (!template)
      return {
        errors: { template_id: [fieldError(`No template found for id '${String(data.template_id)}'`)] },
      };
  }
  if (ctx.isCreate) {
    data.inputs_schema = data.inputs_schema || [];
    data.inputs = data.inputs || {};
    data.mappings = data.mappings || null;
    if (template) {
      // A legacy_destination keeps hog "" as the migration stores it, not the template's code.
      data.hog = data.type === 'legacy_destination' ? (data.hog ?? '') : data.hog || template.hog;
      data.inputs_schema =
        (Array.isArray(data.inputs_schema) && data.inputs_schema.length > 0 && data.inputs_schema) ||
        template.inputs_schema;
      data.icon_url = data.icon_url || template.icon_url;
      data.description = data.description || template.description;
      data.name = data.name || template.name;
    }
  }
  return { data, template };
}

/** The stored non-secret inputs: what `instance.inputs` holds in PostHog (secrets live apart). */
export function plainInputs(fn: HogFunction): Record<string, HogInput> {
  const secret = new Set(fn.inputsSchema.filter((s) => s.secret).map((s) => s.key));
  return Object.fromEntries(Object.entries(fn.inputs).filter(([k]) => !secret.has(k)));
}

/** The stored secret inputs (PostHog's `encrypted_inputs`). */
function secretInputs(fn: HogFunction): Record<string, HogInput> {
  const plain = plainInputs(fn);
  return Object.fromEntries(Object.entries(fn.inputs).filter(([k]) => !(k in plain)));
}

/** Every field read in the serializer's field order; DRF reports all of their errors at once. */
function readFields(data: Record<string, unknown>, ctx: WriteContext): HogFields | ErrorTree {
  const errors: ErrorTree = {};
  const fields = { filters: data.filters } as HogFields;
  const type = String(data.type);
  if (!HOG_FUNCTION_TYPES.includes(type))
    errors.type = [fieldError(`"${type}" is not a valid choice.`, 'invalid_choice')];
  else if (type === 'warehouse_source_webhook')
    errors.type = [fieldError('Cannot create or modify warehouse source webhook functions via this API.')];
  else if (!ctx.isCreate && ctx.instance && ctx.instance.type !== type)
    errors.type = [fieldError('Cannot modify the type of an existing function')];
  fields.type = type;
  if (has(data, 'name')) fields.name = take(errors, 'name', readText(data.name, 400, true));
  if (has(data, 'description'))
    fields.description = take(errors, 'description', readText(data.description, null, false)) ?? undefined;
  if (has(data, 'enabled')) fields.enabled = take(errors, 'enabled', readBoolean(data.enabled));
  if (has(data, 'deleted')) fields.deleted = take(errors, 'deleted', readBoolean(data.deleted));
  if (has(data, 'hog')) {
    const hog = take(errors, 'hog', readText(data.hog, null, false));
    // A legacy_destination runs its plugin, not Hog: stored with hog "" (legacy-destinations.ts).
    if (hog === '' && type !== 'legacy_destination')
      errors.hog = [fieldError('This field may not be blank.', 'blank')];
    else if (hog !== undefined && hog !== null) fields.hog = hog;
  }
  const schema = take<HogInputSchema[]>(errors, 'inputs_schema', readSchema(data.inputs_schema));
  fields.inputsSchema = schema ?? [];
  // What {"secret": true} recovers: the stored function's `encrypted_inputs`, its secret inputs only.
  const stored = ctx.instance ? secretInputs(ctx.instance) : {};
  const inputs = take<Record<string, HogInput>>(
    errors,
    'inputs',
    readInputs(data.inputs, data.inputs_schema, stored, type),
  );
  fields.inputs = inputs ?? {};
  if (has(data, 'masking')) fields.masking = take(errors, 'masking', readMasking(data.masking));
  if (has(data, 'mappings'))
    fields.mappings = take<unknown[] | null>(errors, 'mappings', readMappings(data.mappings, stored, type));
  if (has(data, 'icon_url')) fields.iconUrl = take(errors, 'icon_url', readText(data.icon_url, null, true));
  if (has(data, 'execution_order'))
    fields.executionOrder = take(errors, 'execution_order', readOrder(data.execution_order));
  return Object.keys(errors).length > 0 ? errors : fields;
}

/** HogFunctionSerializer.validate: the rules that need the whole write (first failure only). */
function validateWhole(fields: HogFields, ctx: WriteContext): ErrorTree | null {
  const cap = ENABLED_CAPS[fields.type];
  const { instance } = ctx;
  if (cap !== undefined) {
    const willBeEnabled = fields.enabled ?? instance?.enabled ?? false;
    const willBeDeleted = fields.deleted ?? instance?.deleted ?? false;
    const wasActive = instance?.enabled === true && !instance.deleted;
    const enabledNow = [...ctx.store.hogFunctions.values()].filter(
      (f) => f.projectId === ctx.projectId && f.type === fields.type && !f.deleted && f.enabled,
    ).length;
    if (willBeEnabled && !willBeDeleted && !wasActive && enabledNow >= cap)
      return {
        type: [
          fieldError(
            `Maximum of ${cap} enabled ${humanisedType(fields.type)} functions allowed per team. Please contact support if you need this limit increased, or disable some existing ones.`,
          ),
        ],
      };
  }
  if (fields.mappings !== undefined && fields.mappings !== null) {
    const { events: _e, actions: _a, ...rest } = fields.filters;
    fields.filters = rest;
    if (!['site_destination', 'destination'].includes(fields.type))
      return { mappings: [fieldError('Mappings are only allowed for destinations.')] };
  }
  if (fields.hog !== undefined && Buffer.byteLength(fields.hog, 'utf8') > MAX_HOG_CODE_SIZE_BYTES)
    return {
      hog: [
        fieldError(
          'HOG code exceeds maximum size of 100KB. Please simplify your code or contact support if you need this limit increased.',
        ),
      ],
    };
  if (ctx.isCreate && fields.type === 'legacy_destination') fields.hog ??= '';
  else if (ctx.isCreate && !fields.hog) return { hog: [fieldError('Required.')] };
  return null;
}

/** A write body read and validated for `ctx`: the fields to store, or DRF's errors. */
export function validateHogWrite(body: Record<string, unknown>, ctx: WriteContext): WriteOutcome {
  const prepared = withDefaults(body, ctx);
  if ('errors' in prepared) return prepared;
  const fields = readFields(prepared.data, ctx);
  if (!('inputsSchema' in fields)) return { errors: fields };
  refuseUncompilableFilters(ctx.store, ctx.projectId, String(prepared.data.type), fields.filters);
  const whole = validateWhole(fields as HogFields, ctx);
  if (whole) return { errors: whole };
  return { fields: fields as HogFields, template: prepared.template };
}
