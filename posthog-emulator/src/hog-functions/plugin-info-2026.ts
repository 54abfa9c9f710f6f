// A legacy config's `plugin_info` as PostHog 2026 answers it: PluginSerializer
// (products/cdp/backend/api/plugin.py@1841bc1).
import { HOG_TEMPLATES, legacyTemplateId } from './seed.ts';
import type { Plugin } from '../model.ts';
import type { Store } from '../store.ts';

/**
 * PluginSerializer (plugin.py@1841bc1), its Meta.fields in order; `is_global` and `metrics` as the
 * model's defaults (models/plugin.py@7398119). The reference upstream models no plugin's owner:
 * the organization of the config's project stands as the one that installed it.
 */
export function pluginInfo2026(store: Store, plugin: Plugin, projectId: number): Record<string, unknown> {
  const organization = store.organizations.get(store.projects.get(projectId)!.organizationId) ?? null;
  return {
    id: plugin.id,
    plugin_type: plugin.plugin_type,
    name: plugin.name,
    description: plugin.description,
    url: plugin.url.split('?')[0],
    icon: plugin.icon,
    config_schema: plugin.config_schema,
    tag: plugin.tag,
    latest_tag: plugin.latest_tag,
    is_global: false,
    organization_id: organization?.id ?? null,
    organization_name: organization?.name ?? 'posthog-inline',
    capabilities: plugin.capabilities,
    metrics: {},
    public_jobs: plugin.public_jobs,
    hog_function_migration_available: templateOf(plugin) !== undefined,
  };
}

/** The deprecated `plugin-<slug>` template a plugin migrates to, when there is one. */
export const templateOf = (plugin: Plugin) => HOG_TEMPLATES.find((t) => t.id === legacyTemplateId(plugin));
