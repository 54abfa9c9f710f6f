// An activity entry's changes with their secrets masked, by the entry's scope:
//
// - HogFunction: before and after of `encrypted_inputs`, `inputs`, `mappings` and `transpiled`
//   read "masked" (activity_log.py@5328c2d `field_with_masked_contents`,
//   destination_activity_logs.py@6422e2d); an `inputs_schema` change loses its secret defaults.
// - BatchExport: PostHog compares the export's own fields only (handle_batch_export_change,
//   products/batch_exports/backend/activity_logging.py@3c53764): the destination is another row,
//   so its config never shows. A `destination` or `config` change reads "masked"; any other
//   change's values have their secret members, at any depth, read {"secret": true}.
// - PluginConfig and Plugin: PostHog writes a secret setting's change with no field and
//   SECRET_FIELD_VALUE before and after (get_plugin_config_changes, posthog/api/plugin.py
//   @fdc934b). A change with no field, of `config`, or of a setting named like a credential reads
//   that mask.
//
// Null stays null, so a change still says whether there was a value.
import { redactedSecretsDeep } from './destination-config.ts';
import { isObject, type Json, MASKED_CHANGE, namesCredential, PLUGIN_SECRET_MASK } from './names.ts';
import { redactedInputsSchema } from './redaction.ts';

/** A hog function's fields whose values an activity change shows as "masked". */
const HOG_MASKED_FIELDS = new Set(['encrypted_inputs', 'inputs', 'mappings', 'transpiled']);
/** A batch export's fields that would hold its destination's config. */
const EXPORT_MASKED_FIELDS = new Set(['destination', 'config']);

type Change = Json & { field?: unknown; before?: unknown; after?: unknown };
type ChangeRedaction = (change: Change) => Change;

const maskedAs = (mask: string) => (value: unknown) => (value === null || value === undefined ? value : mask);
const masked = maskedAs(MASKED_CHANGE);
const pluginMasked = maskedAs(PLUGIN_SECRET_MASK);
const both = (change: Change, redact: (value: unknown) => unknown): Change => ({
  ...change,
  before: redact(change.before),
  after: redact(change.after),
});

function hogFunctionChange(change: Change): Change {
  if (typeof change.field !== 'string') return change;
  if (HOG_MASKED_FIELDS.has(change.field)) return both(change, masked);
  if (change.field === 'inputs_schema') return both(change, redactedInputsSchema);
  return change;
}

function batchExportChange(change: Change): Change {
  if (typeof change.field === 'string' && EXPORT_MASKED_FIELDS.has(change.field)) return both(change, masked);
  return both(change, redactedSecretsDeep);
}

function pluginConfigChange(change: Change): Change {
  const field = change.field;
  if (typeof field !== 'string' || field === 'config' || namesCredential(field))
    return both(change, pluginMasked);
  return change;
}

const BY_SCOPE: Record<string, ChangeRedaction> = {
  HogFunction: hogFunctionChange,
  BatchExport: batchExportChange,
  PluginConfig: pluginConfigChange,
  Plugin: pluginConfigChange,
};

/** An activity entry's `detail` with the secret-bearing changes of its scope masked. */
export function redactedActivityDetail(scope: string, detail: unknown): unknown {
  const redact = Object.hasOwn(BY_SCOPE, scope) ? BY_SCOPE[scope] : undefined;
  if (!redact || !isObject(detail) || !Array.isArray(detail.changes)) return detail;
  const changes = detail.changes.map((change) => (isObject(change) ? redact(change as Change) : change));
  return { ...detail, changes };
}
