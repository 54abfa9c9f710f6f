// Secrets never leave the gateway, whatever the upstream answered: a hog function's inputs and
// schemas here; a batch export's destination (secret-destination-config.ts), a plugin config's
// settings (secret-plugin-config.ts) and activity changes (secret-activity.ts) beside it.
//
// PostHog answers a secret input as {"secret": true} (products/cdp/backend/api/hog_function.py
// @0019077, `to_representation`), keeps the values in `encrypted_inputs` and writes that field as
// "masked" in the activity log (posthog/models/activity_logging/activity_log.py@5328c2d,
// `field_with_masked_contents`); its newest code masks `inputs`, `mappings` and `transpiled` there
// too (products/cdp/backend/services/destination_activity_logs.py@6422e2d). It does not mask a
// mapping's secret inputs (mappings have no encrypted column). The gateway redacts all of these
// again, as defence in depth: an upstream that leaks is not a leak here.
//
// An input passes only when a schema says it is not secret: an input the schema marks secret, an
// input no schema entry names, and every input of a function (or mapping) with no schema read
// {"secret": true}. PostHog validates inputs against the schema and keeps none it does not name,
// so nothing a caller could write back is lost. A secret's `default` in a schema is left out.
import { isObject, type Json, SECRET_INPUT } from './names.ts';

export { MASKED_CHANGE, SECRET_INPUT } from './names.ts';

/** Each key of an `inputs_schema` array with whether it is secret; null when there is no schema. */
function schemaKeys(schema: unknown): Map<string, boolean> | null {
  if (!Array.isArray(schema)) return null;
  const keys = new Map<string, boolean>();
  for (const field of schema) {
    if (isObject(field) && typeof field.key === 'string') keys.set(field.key, field.secret === true);
  }
  return keys;
}

/**
 * The inputs with every one a schema does not call not-secret as {"secret": true}; anything not
 * an object passes as null.
 */
export function redactedInputs(inputs: unknown, schema: unknown): Json | null {
  if (!isObject(inputs)) return null;
  const keys = schemaKeys(schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(inputs)) {
    const plain = keys?.get(key) === false && !(isObject(value) && value.secret === true);
    out[key] = plain ? value : SECRET_INPUT;
  }
  return out;
}

/** An `inputs_schema` with each secret entry's `default` left out; anything else as it came. */
export function redactedInputsSchema(schema: unknown): unknown {
  if (!Array.isArray(schema)) return schema ?? null;
  return schema.map((field) => {
    if (!isObject(field) || field.secret !== true || !('default' in field)) return field;
    const { default: _secretDefault, ...rest } = field;
    return rest;
  });
}

/** Mappings with each one's inputs redacted by its own `inputs_schema`, and its secret defaults. */
export function redactedMappings(mappings: unknown): unknown {
  if (!Array.isArray(mappings)) return mappings ?? null;
  return mappings.map((mapping) => {
    if (!isObject(mapping)) return mapping;
    const out: Json = { ...mapping };
    if ('inputs' in mapping) out.inputs = redactedInputs(mapping.inputs, mapping.inputs_schema);
    if ('inputs_schema' in mapping) out.inputs_schema = redactedInputsSchema(mapping.inputs_schema);
    return out;
  });
}

/** A template's mapping templates with their secret defaults left out. */
export function redactedMappingTemplates(templates: unknown): unknown {
  if (!Array.isArray(templates)) return templates ?? null;
  return templates.map((template) =>
    isObject(template) && 'inputs_schema' in template
      ? { ...template, inputs_schema: redactedInputsSchema(template.inputs_schema) }
      : template,
  );
}
