// A legacy plugin config's settings with its secrets masked. PostHog answers each setting its
// plugin's `config_schema` marks `secret: true`, when it holds a value, as SECRET_FIELD_VALUE
// (PluginConfigSerializer.get_config and _get_secret_fields_for_plugin, posthog/api/plugin.py
// @fdc934b, since moved to products/cdp/backend/api/plugin.py). The gateway masks them again:
//
// - when the answer carries the plugin's schema (`plugin_info.config_schema`: a retrieve, a
//   write), by that schema, as PostHog does;
// - when it does not (a list answers `plugin_info: null`), by name: a setting named like a
//   credential (secret-names.ts) is masked. A secret named otherwise is PostHog's to mask there.
//
// The mask is PostHog's own, so a caller writing the config back leaves the secret as it is
// (config-body.ts). The spec dialect's config is a JSON string: it is masked as the object it
// holds and answered as a string again.
import { isObject, type Json, namesCredential, PLUGIN_SECRET_MASK } from './names.ts';

/** The keys a `config_schema` (an array of fields, or an object by key) marks secret; null when none is given. */
function secretKeys(schema: unknown): Set<string> | null {
  if (Array.isArray(schema)) {
    const keys = new Set<string>();
    for (const field of schema) {
      if (isObject(field) && typeof field.key === 'string' && field.secret === true) keys.add(field.key);
    }
    return keys;
  }
  if (isObject(schema)) {
    return new Set(Object.keys(schema).filter((key) => isObject(schema[key]) && schema[key].secret === true));
  }
  return null;
}

/** PostHog masks a secret that holds a value (Python-truthy): an empty or unset one reads as it is. */
function masked(config: Json, isSecret: (key: string) => boolean): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(config)) {
    out[key] = isSecret(key) && value ? PLUGIN_SECRET_MASK : value;
  }
  return out;
}

/** The config with its secrets masked, by `pluginInfo.config_schema` when given, else by name. */
export function redactedPluginConfig(config: unknown, pluginInfo: unknown): unknown {
  if (typeof config === 'string') {
    const parsed = parseObject(config);
    return parsed === null ? config : JSON.stringify(redactedPluginConfig(parsed, pluginInfo));
  }
  if (!isObject(config)) return config ?? null;
  const schema = isObject(pluginInfo) ? secretKeys(pluginInfo.config_schema) : null;
  return masked(config, schema ? (key) => schema.has(key) : namesCredential);
}

function parseObject(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}
