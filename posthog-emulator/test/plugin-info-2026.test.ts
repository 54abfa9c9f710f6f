// A config's `plugin_info` in the 2026 dialect is PluginSerializer's answer
// (products/cdp/backend/api/plugin.py@1841bc1: its Meta.fields in order, `organization_name`
// falling back to "posthog-inline"; model products/cdp/backend/models/plugin.py@7398119:
// `is_global` false and `metrics` {} by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

describe('PostHog 2026: plugin_info', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('answers PluginSerializer fields in order, with the installing organization', async () => {
    const { body } = await rest(upstream, 'GET', '/api/projects/1/pipeline_destination_configs/5/');
    expect(Object.keys(body.plugin_info)).toEqual([
      'id',
      'plugin_type',
      'name',
      'description',
      'url',
      'icon',
      'config_schema',
      'tag',
      'latest_tag',
      'is_global',
      'organization_id',
      'organization_name',
      'capabilities',
      'metrics',
      'public_jobs',
      'hog_function_migration_available',
    ]);
    const organization = upstream.store.organizations.get(upstream.store.projects.get(1)!.organizationId)!;
    expect(body.plugin_info).toMatchObject({
      is_global: false,
      organization_id: organization.id,
      organization_name: organization.name,
      metrics: {},
    });
  });
});
