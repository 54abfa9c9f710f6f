// Secrets never leave the gateway, whatever the upstream answered. PostHog answers a secret input
// as {"secret": true} (products/cdp/backend/api/hog_function.py@0019077, `to_representation`),
// keeps the values in `encrypted_inputs` and writes that field as "masked" in the activity log
// (posthog/models/activity_logging/activity_log.py@5328c2d, `field_with_masked_contents`); its
// newest code masks `inputs`, `mappings` and `transpiled` there too
// (products/cdp/backend/services/destination_activity_logs.py@6422e2d). It does not mask a
// mapping's secret inputs (mappings have no encrypted column). The gateway redacts all of these
// again, as defence in depth: an upstream that leaks is not a leak here.

/** What a secret input reads as, as PostHog answers it. */
export const SECRET_INPUT = Object.freeze({ secret: true });
/** What a masked activity value reads as (PostHog's `changes_between` writes "masked"). */
export const MASKED_CHANGE = 'masked';

/** A hog function's fields whose values an activity change shows as "masked". */
const MASKED_FIELDS = new Set(['encrypted_inputs', 'inputs', 'mappings', 'transpiled']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The keys an `inputs_schema` marks secret. */
function secretKeys(schema: unknown): Set<string> {
  const keys = new Set<string>();
  if (!Array.isArray(schema)) return keys;
  for (const field of schema) {
    if (isObject(field) && typeof field.key === 'string' && field.secret === true) keys.add(field.key);
  }
  return keys;
}

/** The inputs with every secret one as {"secret": true}; anything not an object passes as null. */
export function redactedInputs(inputs: unknown, schema: unknown): Json | null {
  if (!isObject(inputs)) return null;
  const secret = secretKeys(schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(inputs)) {
    const markedSecret = isObject(value) && value.secret === true;
    out[key] = secret.has(key) || markedSecret ? SECRET_INPUT : value;
  }
  return out;
}

/** Mappings with each one's inputs redacted by that mapping's own `inputs_schema`. */
export function redactedMappings(mappings: unknown): unknown {
  if (!Array.isArray(mappings)) return mappings ?? null;
  return mappings.map((mapping) =>
    isObject(mapping) && 'inputs' in mapping
      ? { ...mapping, inputs: redactedInputs(mapping.inputs, mapping.inputs_schema) }
      : mapping,
  );
}

/**
 * An activity entry's `detail` with a hog function's secret-bearing changes masked: before and
 * after of `encrypted_inputs`, `inputs`, `mappings` and `transpiled` read "masked" (null stays
 * null, so a change still says whether there was a value).
 */
export function redactedActivityDetail(scope: string, detail: unknown): unknown {
  if (scope !== 'HogFunction' || !isObject(detail) || !Array.isArray(detail.changes)) return detail;
  const changes = detail.changes.map((change) =>
    isObject(change) && typeof change.field === 'string' && MASKED_FIELDS.has(change.field)
      ? { ...change, before: masked(change.before), after: masked(change.after) }
      : change,
  );
  return { ...detail, changes };
}

const masked = (value: unknown) => (value === null || value === undefined ? value : MASKED_CHANGE);
