// Legacy plugin configs as `legacy_destination` hog functions, built as PostHog's migration builds
// them (posthog/cdp/legacy_destination_migration.py@7cc81e8, `_build_hog_function`):
// type legacy_destination, template_id `plugin-<plugin id from the URL>`, hog "", bytecode [],
// the template's inputs_schema, inputs {key: {"value": v}} (values as the legacy consumer reads
// them), filters None, enabled, created_by unset. The plugin config stays enabled; the consumer
// runs the function instead while it is enabled (`disable_migrated_plugin_configs`, same file).
import type { HogFunction, HogFunctionTemplate, HogInput, HogInputSchema, Plugin } from '../model.ts';

/** PLUGIN_ID_OVERRIDES: plugins whose bundled template is named otherwise than their URL. */
const PLUGIN_ID_OVERRIDES: Record<string, string> = {
  'semver-flattener': 'semver-flattener-plugin',
  'user-agent': 'user-agent-plugin',
};

/** plugin_id_from_url: the URL without `inline://` and `https://github.com/PostHog/`, then the overrides. */
export function pluginIdFromUrl(url: string): string {
  const id = url.replaceAll('inline://', '').replaceAll('https://github.com/PostHog/', '');
  return PLUGIN_ID_OVERRIDES[id] ?? id;
}

/** The template a plugin's configs migrate to: `plugin-<plugin id>`. */
export const legacyTemplateId = (plugin: Pick<Plugin, 'url'>) => `plugin-${pluginIdFromUrl(plugin.url)}`;

/**
 * A legacy plugin's bundled template's inputs: one per config field, as plain text that is never
 * templated (the consumer hands the plugin its config as strings).
 */
export function legacyInputsSchema(plugin: Plugin): HogInputSchema[] {
  return plugin.config_schema.map((field) => ({
    type: 'string',
    key: field.key,
    label: field.name ?? field.key,
    required: false,
    secret: Boolean(field.secret),
    hidden: false,
    templating: false,
  }));
}

/** `_as_consumer_value`: a config value as CdpLegacyEventsConsumer reads it (`value?.toString() ?? ''`). */
export function consumerValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** build_inputs, less the keys the template does not declare (dropped, as drop_unmapped_inputs does). */
export function migratedInputs(
  config: Record<string, unknown>,
  schema: HogInputSchema[],
): Record<string, HogInput> {
  const keys = new Set(schema.map((s) => s.key));
  return Object.fromEntries(
    Object.entries(config)
      .filter(([key]) => keys.has(key))
      // Saved by the model, not the serializer: no bytecode, no order.
      .map(([key, value]) => [key, { value: consumerValue(value) } as unknown as HogInput]),
  );
}

export interface MigratedRow {
  id: string;
  projectId: number;
  plugin: Plugin;
  template: HogFunctionTemplate;
  config: Record<string, unknown>;
  /** The seed may rename a row, as a user may since. */
  name?: string;
  enabled: boolean;
  atMicros: number;
}

/** One migrated row (`_build_hog_function`). */
export function migratedFunction(row: MigratedRow): HogFunction {
  const { template } = row;
  return {
    id: row.id,
    projectId: row.projectId,
    type: 'legacy_destination',
    name: row.name ?? row.plugin.name,
    description: template.description ?? '',
    createdAtMicros: row.atMicros,
    updatedAtMicros: row.atMicros,
    createdBy: null,
    enabled: row.enabled,
    deleted: false,
    hog: '',
    inputsSchema: template.inputs_schema,
    inputs: migratedInputs(row.config, template.inputs_schema),
    filters: null,
    masking: null,
    mappings: null,
    iconUrl: template.icon_url ?? null,
    templateId: template.id,
    statusState: row.enabled ? 1 : 3,
    executionOrder: null,
    version: 1,
  };
}
