// The legacy pipeline_destination_configs routes as PostHog 2026 answers them
// (products/cdp/backend/api/plugin.py at 1841bc1, PluginConfigSerializer and
// PluginConfigViewSet): names and descriptions fall back to the plugin's, `plugin_info` says
// whether the plugin migrates, a create makes a hog function instead (posthog/cdp/legacy_plugins,
// hog_function_from_plugin_config) and answers the unsaved config, an update logs only
// `config_updated` and `enabled`/`disabled`, and DELETE only disables.
import { permissionDenied, serverError, validationError } from '../http/api-error.ts';
import { CUSTOM_ACTION_REFUSED_2026 } from '../http/auth.ts';
import { SECRET_MASK } from '../dialect.ts';
import { validateHogWrite } from '../hog-functions/write.ts';
import type { ActivityChange, ApiKey, DestinationConfig, HogFunction, Plugin } from '../model.ts';
import { pluginInfo2026, templateOf } from '../hog-functions/plugin-info-2026.ts';
import type { Reply, RouteContext } from '../http/reply.ts';
import { empty } from '../http/reply.ts';
import { seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';
import type { WritableFields } from './validation.ts';

export const PLUGIN_CREATION_REMOVED =
  'Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information.';

/** PluginConfigSerializer.to_representation, `plugin_info` as PluginSerializer answers it. */
export function config2026(store: Store, answer: Record<string, unknown>): Record<string, unknown> {
  const plugin = store.plugins.get(answer.plugin as number)!;
  const info = answer.plugin_info as Record<string, unknown> | null;
  return {
    ...answer,
    plugin_info: info && pluginInfo2026(store, plugin, answer.team_id as number),
    name: answer.name || plugin.name,
    description: answer.description || plugin.description,
  };
}

/**
 * PluginConfigSerializer.create: a hog function from the plugin's `plugin-<slug>` template, the
 * config's values as its inputs; anything going wrong (no template, no form `config`, invalid) is
 * the one refusal. Answers the config it did not save.
 */
export function createConfig2026(ctx: RouteContext, fields: WritableFields): DestinationConfig {
  const { store, project, key } = ctx;
  const plugin = store.plugins.get(fields.plugin!)!;
  const template = templateOf(plugin);
  if (!template || fields.config === undefined)
    throw validationError(null, 'invalid_input', PLUGIN_CREATION_REMOVED);
  const inputs = Object.fromEntries(Object.entries(fields.config).map(([k, v]) => [k, { value: v }]));
  const outcome = validateHogWrite(
    {
      template_id: template.id,
      type: template.type,
      name: plugin.name,
      description: template.description,
      hog: template.hog,
      inputs,
      enabled: fields.enabled ?? true,
      icon_url: template.icon_url,
      inputs_schema: template.inputs_schema,
      execution_order: fields.order,
    },
    { store, projectId: project.id, instance: null, isCreate: true },
  );
  if ('errors' in outcome) throw validationError(null, 'invalid_input', PLUGIN_CREATION_REMOVED);
  saveHogFunction(store, project.id, key, outcome.fields, template.id);
  return {
    id: null as unknown as number,
    projectId: project.id,
    plugin: plugin.id,
    enabled: fields.enabled ?? false,
    order: fields.order!,
    config: fields.config,
    error: null,
    name: fields.name ?? null,
    description: fields.description ?? null,
    deleted: fields.deleted ?? false,
    filters: null,
    deliveryRate24h: null,
    // Unsaved: the answer shows null for id, created_at and updated_at.
    createdAtMicros: 0,
    updatedAtMicros: 0,
  };
}

/** HogFunctionSerializer.create, called directly: no activity entry. */
function saveHogFunction(
  store: Store,
  projectId: number,
  key: ApiKey,
  fields: NonNullable<Extract<ReturnType<typeof validateHogWrite>, { fields: unknown }>['fields']>,
  templateId: string,
): void {
  const now = store.nowMicros();
  const fn: HogFunction = {
    id: seededUuid(9, store.hogFunctions.size + 1_000 + store.activity.length),
    projectId,
    type: fields.type,
    name: fields.name ?? null,
    description: fields.description ?? '',
    createdAtMicros: now,
    updatedAtMicros: now,
    createdBy: key.userId,
    enabled: fields.enabled ?? false,
    deleted: false,
    hog: fields.hog!,
    inputsSchema: fields.inputsSchema,
    inputs: fields.inputs,
    filters: fields.filters,
    masking: null,
    mappings: null,
    iconUrl: fields.iconUrl ?? null,
    templateId,
    statusState: 0,
    executionOrder: fields.executionOrder ?? null,
    version: 1,
  };
  store.hogFunctions.set(fn.id, fn);
}

/** get_plugin_config_changes: dict_changes_between("Plugin", ...), a secret key's change masked with no field. */
function configChanges(plugin: Plugin, before: Record<string, unknown>, after: Record<string, unknown>) {
  const secret = new Set(plugin.config_schema.filter((f) => f.secret).map((f) => f.key));
  const changes: ActivityChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [l, r] = [before[field] ?? null, after[field] ?? null];
    let action: ActivityChange['action'] | null = null;
    if (l === null && r !== null) action = 'created';
    else if (r === null && l !== null) action = 'deleted';
    else if (JSON.stringify(l) !== JSON.stringify(r)) action = 'changed';
    if (action === null) continue;
    if (secret.has(field))
      changes.push({ type: 'PluginConfig', action, field: null, before: SECRET_MASK, after: SECRET_MASK });
    else
      changes.push({
        type: 'Plugin',
        action,
        field,
        before: action === 'created' ? null : l,
        after: action === 'deleted' ? null : r,
      });
  }
  return changes;
}

/** log_config_update_activity: config_updated when the config changed, then enabled/disabled. */
export function logConfigUpdate2026(
  store: Store,
  key: ApiKey,
  before: DestinationConfig,
  after: DestinationConfig,
) {
  const plugin = store.plugins.get(after.plugin)!;
  const log = (activity: string, changes: ActivityChange[]) =>
    store.pushActivity({
      projectId: after.projectId,
      userId: key.userId,
      is_system: false,
      activity,
      scope: 'PluginConfig',
      item_id: String(after.id),
      detail: { name: plugin.name, short_id: null, type: null, changes, trigger: null, context: null },
      createdAtMicros: store.nowMicros(),
    });
  const changes = configChanges(plugin, before.config, after.config);
  if (changes.length > 0) log('config_updated', changes);
  if (before.enabled !== after.enabled) log(after.enabled ? 'enabled' : 'disabled', []);
}

/** PluginConfigViewSet.destroy: PluginConfig.objects.get (an unknown id is a 500), then only disabled. */
export function deleteConfig2026(store: Store, config: DestinationConfig | undefined): Reply {
  if (!config) throw serverError();
  config.enabled = false;
  config.updatedAtMicros = store.nowMicros();
  return empty(204);
}

// products/cdp/backend/api/plugin.py, PluginConfigViewSet.activity and .migrate: in no scope list
// (posthog/permissions.py), so a personal API key never reaches them.
export function refuseToPersonalKeys(): Reply {
  throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
}
