// What an update to a hog function leaves in its activity entry: `changes_between("HogFunction",
// before, after)` (posthog/models/activity_logging/activity_log.py, code-index id 54528403137).
// Every model field is compared except the common exclusions (ids, timestamps, team, created_by)
// and HogFunction's own `field_exclusions` (activity_log.py@7c88b78: bytecode, transpiled,
// icon_url, version, draft_updated_at, revisions); `encrypted_inputs`, where the secret values
// live, is in `field_with_masked_contents`, so its change is written with "masked" for both
// values; `execution_order` is shown as `priority`. An empty value ('' [] {} null) on one side
// makes the change `created` or `deleted` rather than `changed`.
import type { ActivityChange, HogFunction } from './model.ts';

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

// `inputs` too: the newest PostHog masks a hog function's `inputs` changes (its masking command's
// docstring, code-index id 70951504805: "hog functions that included credentials in `inputs`").
const MASKED = new Set(['encrypted_inputs', 'inputs']);
const RENAMED: Record<string, string> = { execution_order: 'priority' };
const isEmpty = (v: unknown) =>
  v === null ||
  v === undefined ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

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
    const masked = MASKED.has(field) && !leakSecrets;
    const shown = (v: unknown) => (masked ? 'masked' : v);
    const change = { type: 'HogFunction', field: RENAMED[field] ?? field };
    if (isEmpty(l) && isEmpty(r)) continue;
    if (isEmpty(l)) changes.push({ ...change, action: 'created', before: null, after: shown(r) });
    else if (isEmpty(r)) changes.push({ ...change, action: 'deleted', before: shown(l), after: null });
    else if (JSON.stringify(l) !== JSON.stringify(r))
      changes.push({ ...change, action: 'changed', before: shown(l), after: shown(r) });
  }
  return changes;
}
