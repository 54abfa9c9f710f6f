// What an update to a hog function leaves in its activity entry: `changes_between("HogFunction",
// before, after)` (posthog/models/activity_logging/activity_log.py, code-index id 54528403137).
// Every model field is compared except the common exclusions (ids, timestamps, team, created_by)
// and HogFunction's own `field_exclusions` (activity_log.py@7c88b78: bytecode, transpiled,
// icon_url, version, draft_updated_at, revisions). Its `field_with_masked_contents` are written
// through `mask_change_values` (activity_log.py@7c88b78): `inputs` is key-masked (each key before
// "masked", each key after "masked", or "changed" where its value differs or is new), `mappings`
// and `encrypted_inputs` read "masked"; null stays null (the draft columns:
// hog-function-draft-state.ts). `execution_order` is shown as `priority`. An empty value
// ('' [] {} null) on one side makes the change `created` or `deleted` rather than `changed`.
import type { ActivityChange, HogFunction } from '../model.ts';

/** The HogFunction model's compared fields, in its field order, as stored. */
function snapshot(fn: HogFunction): [string, unknown][] {
  const inputs: Record<string, unknown> = {};
  const encrypted: Record<string, unknown> = {};
  // HogFunction.move_secret_inputs: every schema key is stored, secrets apart.
  for (const schema of fn.inputsSchema) {
    const input = fn.inputs[schema.key] ?? null;
    if (schema.secret) encrypted[schema.key] = input;
    else inputs[schema.key] = input;
  }
  return [
    ['name', fn.name],
    ['description', fn.description],
    ['deleted', fn.deleted],
    ['enabled', fn.enabled],
    ['type', fn.type],
    ['hog', fn.hog],
    ['inputs_schema', fn.inputsSchema],
    ['inputs', inputs],
    ['encrypted_inputs', encrypted],
    ['filters', fn.filters],
    ['mappings', fn.mappings],
    ['masking', fn.masking],
    ['template_id', fn.templateId],
    ['execution_order', fn.executionOrder],
  ];
}

/** field_with_masked_contents["HogFunction"] among the compared fields (draft ones apart). */
const MASKED = new Set(['inputs', 'mappings', 'encrypted_inputs']);
/** key_masked_fields["HogFunction"]. */
const KEY_MASKED = new Set(['inputs']);
const RENAMED: Record<string, string> = { execution_order: 'priority' };
const isEmpty = (v: unknown) =>
  v === null ||
  v === undefined ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** Python's json.dumps(v, sort_keys=True): equal values compare equal whatever their key order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (isDict(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

/** mask_change_values (activity_log.py@7c88b78) for a HogFunction field. */
export function maskChangeValues(field: string, before: unknown, after: unknown) {
  if (KEY_MASKED.has(field) && (before === null || isDict(before)) && (after === null || isDict(after))) {
    const left = before ?? {};
    const keyMask = (key: string, value: unknown) =>
      key in left && canonical(left[key]) === canonical(value) ? 'masked' : 'changed';
    return {
      before: before === null ? null : Object.fromEntries(Object.keys(left).map((k) => [k, 'masked'])),
      after:
        after === null ? null : Object.fromEntries(Object.entries(after).map(([k, v]) => [k, keyMask(k, v)])),
    };
  }
  return { before: before === null ? null : 'masked', after: after === null ? null : 'masked' };
}

/** A frozen copy of what `changes_between` compares (taken before a write). */
export const hogSnapshot = (fn: HogFunction): HogFunction => structuredClone(fn);

/**
 * The changes between two states of one function. `leakSecrets` (a broken upstream, as a test
 * double) writes the secret values instead of "masked".
 */
export function hogChanges(before: HogFunction, after: HogFunction, leakSecrets = false): ActivityChange[] {
  const left = snapshot(before);
  const right = new Map(snapshot(after));
  const changes: ActivityChange[] = [];
  for (const [field, l] of left) {
    const r = right.get(field);
    const change = { type: 'HogFunction', field: RENAMED[field] ?? field };
    const values = (before: unknown, after: unknown) =>
      MASKED.has(field) && !leakSecrets ? maskChangeValues(field, before, after) : { before, after };
    if (isEmpty(l) && isEmpty(r)) continue;
    if (isEmpty(l)) changes.push({ ...change, action: 'created', ...values(null, r) });
    else if (isEmpty(r)) changes.push({ ...change, action: 'deleted', ...values(l, null) });
    else if (JSON.stringify(l) !== JSON.stringify(r))
      changes.push({ ...change, action: 'changed', ...values(l, r) });
  }
  return changes;
}
