// Legacy plugin configs as `legacy_destination` hog functions in the 2026 dialect, as
// posthog/cdp/legacy_destination_migration.py@7cc81e8 builds them (hog "", bytecode [], inputs
// {key: {"value": v}}, template `plugin-<plugin id>`), a create of that type as the model takes it,
// and filters that compile during validation and not during the save
// (products/cdp/backend/models/hog_functions/hog_function.py@cf2dead).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { legacyTemplateId, pluginIdFromUrl } from '../src/hog-functions/legacy-destinations.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const COHORT_FILTERS = { properties: [{ type: 'cohort', key: 'id', value: 1 }] };

describe('legacy destinations and stored filters, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('forms the template id as the migration does', () => {
    expect(pluginIdFromUrl('https://github.com/PostHog/posthog-plugin-geoip')).toBe('posthog-plugin-geoip');
    expect(pluginIdFromUrl('inline://semver-flattener')).toBe('semver-flattener-plugin');
    expect(pluginIdFromUrl('https://github.com/someone/else')).toBe('https://github.com/someone/else');
    expect(legacyTemplateId({ url: 'inline://user-agent' })).toBe('plugin-user-agent-plugin');
  });

  it('seeds migrated rows: hog "", bytecode [], the config as inputs, its deprecated template', async () => {
    const list = await rest(upstream, 'GET', `${FUNCTIONS}?type=legacy_destination`);
    expect(list.body.results.map((f: { name: string; enabled: boolean }) => [f.name, f.enabled])).toEqual(
      expect.arrayContaining([
        ['Webhook Destination (migrated)', true],
        ['BigQuery Export (migrated, off)', false],
      ]),
    );
    const s3 = list.body.results.find((f: { name: string }) => f.name === 'S3 Export (migrated)');
    const one = await rest(upstream, 'GET', `${FUNCTIONS}${s3.id}/`);
    expect(one.body).toMatchObject({ type: 'legacy_destination', hog: '', bytecode: [], filters: null });
    expect(one.body.created_by).toBeNull();
    expect(one.body.template).toMatchObject({ id: 'plugin-s3-export-plugin', status: 'deprecated' });
    expect(one.body.inputs.awsRegion).toEqual({ value: 'eu-west-1' });
    expect(one.body.inputs.awsSecretAccessKey).toEqual({ secret: true });
    const template = await rest(
      upstream,
      'GET',
      '/api/projects/1/hog_function_templates/plugin-s3-export-plugin/',
    );
    expect(template.status).toBe(200);
  });

  it('creates a legacy_destination as the model takes it', async () => {
    const created = await rest(upstream, 'POST', FUNCTIONS, {
      json: {
        type: 'legacy_destination',
        template_id: 'plugin-customerio-plugin',
        enabled: true,
        inputs: { siteId: { value: 'site-9' } },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'legacy_destination', hog: '', bytecode: [], enabled: true });
    expect(created.body.template.id).toBe('plugin-customerio-plugin');
  });

  it('refuses filters that do not compile when the write is validated', async () => {
    const refused = await rest(upstream, 'POST', FUNCTIONS, {
      json: {
        hog: 'return event',
        enabled: true,
        filters: { properties: [{ type: 'cohort', key: 'id', value: 2 }] },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: 'validation_error',
      attr: 'filters__non_field_errors',
      detail:
        "Invalid filter configuration: Can't use cohorts in real-time filters. Please inline the relevant expressions (cohort id=2).",
    });
  });

  it('stores a new function disabled, with no error, when its filters stop compiling during the save', async () => {
    const armed = await fetch(`${upstream.url}/__control/cohorts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, turnsStaticDuringNextSave: true }),
    });
    expect(armed.status).toBe(200);
    const created = await rest(upstream, 'POST', FUNCTIONS, {
      json: { hog: 'return event', enabled: true, filters: COHORT_FILTERS },
    });
    expect(created.status).toBe(201);
    expect(created.body.enabled).toBe(false);
    expect(created.body.filters).toMatchObject({
      bytecode: null,
      bytecode_error: expect.stringContaining('cohort id=1'),
    });
  });

  it('leaves an existing function enabled when its filters stop compiling during the save', async () => {
    const created = await rest(upstream, 'POST', FUNCTIONS, {
      json: { hog: 'return event', enabled: true, filters: COHORT_FILTERS },
    });
    expect(created.body.enabled).toBe(true);
    await fetch(`${upstream.url}/__control/cohorts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, turnsStaticDuringNextSave: true }),
    });
    const renamed = await rest(upstream, 'PATCH', `${FUNCTIONS}${created.body.id}/`, { json: { name: 'x' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.enabled).toBe(true);
  });
});
