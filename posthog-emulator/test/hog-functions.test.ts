// The 2026 dialect's hog functions as products/cdp/backend/api/hog_function.py@0019077 reads them:
// the list (filters, search, order, pages) and the two serializers. Writes:
// hog-function-writes.test.ts; logs and metrics: hog-function-runs.test.ts; test invocations:
// hog-function-invocations.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';
const FULL_FIELDS = [
  'id',
  'type',
  'name',
  'description',
  'created_at',
  'created_by',
  'updated_at',
  'enabled',
  'hog',
  'bytecode',
  'transpiled',
  'inputs_schema',
  'inputs',
  'filters',
  'masking',
  'mappings',
  'icon_url',
  'template',
  'status',
  'execution_order',
  'batch_export_id',
  'version',
  'draft',
  'draft_updated_at',
];
const TYPES = [
  'destination',
  'site_destination',
  'internal_destination',
  'source_webhook',
  'site_app',
  'transformation',
  'transformation_log',
  'legacy_destination',
];

describe('hog functions, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const byName = async (name: string) =>
    (await rest(upstream, 'GET', `${FUNCTIONS}?search=${encodeURIComponent(name)}`)).body.results[0];

  it('lists a function of every type, execution order first, with the minimal serializer fields in order', async () => {
    const { status, body } = await rest(upstream, 'GET', FUNCTIONS);
    expect(status).toBe(200);
    expect(new Set(body.results.map((f: { type: string }) => f.type))).toEqual(new Set(TYPES));
    expect(body.results.slice(0, 2).map((f: { name: string }) => f.name)).toEqual(['GeoIP', 'Drop bots']);
    // HogFunctionMinimalSerializer.Meta.fields, search_match_type dropped without a search.
    expect(Object.keys(body.results[0])).toEqual([
      'id',
      'type',
      'name',
      'description',
      'created_at',
      'created_by',
      'updated_at',
      'enabled',
      'hog',
      'filters',
      'icon_url',
      'template',
      'status',
      'execution_order',
      'draft_updated_at',
    ]);
    const full = await rest(upstream, 'GET', `${FUNCTIONS}?full=true`);
    expect(Object.keys(full.body.results[0])).toEqual(FULL_FIELDS);
  });

  it('answers a retrieve with HogFunctionSerializer: user, template, status, inputs, compiled forms', async () => {
    const webhook = await byName('Webhook to ops');
    const { body } = await rest(upstream, 'GET', `${FUNCTIONS}${webhook.id}/`);
    expect(Object.keys(body)).toEqual(FULL_FIELDS);
    expect(Object.keys(body.created_by)).toEqual([
      'id',
      'uuid',
      'distinct_id',
      'first_name',
      'last_name',
      'email',
      'is_email_verified',
      'hedgehog_config',
      'role_at_organization',
    ]);
    expect(body.created_by.hedgehog_config).toEqual({
      use_as_profile: true,
      color: 'blue',
      accessories: ['beret'],
      skin: null,
    });
    expect(Object.keys(body.template)).toEqual([
      'id',
      'name',
      'description',
      'code',
      'code_language',
      'inputs_schema',
      'type',
      'status',
      'category',
      'free',
      'icon_url',
      'filters',
      'masking',
      'mapping_templates',
    ]);
    expect(body.inputs.url).toEqual({ value: 'value-0', bytecode: ['_H', 1, 32, 'value-0'], order: 0 });
    expect([body.status, body.draft, body.batch_export_id]).toEqual([
      { state: 1, tokens: 10000 },
      null,
      null,
    ]);
    const banner = await byName('Banner');
    const site = await rest(upstream, 'GET', `${FUNCTIONS}${banner.id}/`);
    expect(site.body.bytecode).toBeNull();
    expect(typeof site.body.transpiled).toBe('string');
    // A disabled function is always {state: 0, tokens: 0} (HogFunction.status).
    const off = await byName('Notification bar');
    expect((await rest(upstream, 'GET', `${FUNCTIONS}${off.id}/`)).body.status).toEqual({
      state: 0,
      tokens: 0,
    });
  });

  it('searches name then description: exact substrings only when there are any, else trigram matches', async () => {
    const exact = await rest(upstream, 'GET', `${FUNCTIONS}?search=webhook`);
    expect(exact.body.results.map((f: { search_match_type: string }) => f.search_match_type)).toEqual(
      exact.body.results.map(() => 'exact'),
    );
    expect(exact.body.results.map((f: { name: string }) => f.name)).toContain('Stripe webhook');
    const typo = await rest(upstream, 'GET', `${FUNCTIONS}?search=webhok`);
    expect(typo.body.results.length).toBeGreaterThan(0);
    expect(new Set(typo.body.results.map((f: { search_match_type: string }) => f.search_match_type))).toEqual(
      new Set(['similar']),
    );
    const blank = await rest(upstream, 'GET', `${FUNCTIONS}?search=%20%20`);
    expect(blank.body.count).toBe((await rest(upstream, 'GET', FUNCTIONS)).body.count);
    expect(blank.body.results[0]).not.toHaveProperty('search_match_type');
    const long = await rest(upstream, 'GET', `${FUNCTIONS}?search=${'x'.repeat(201)}`);
    expect([long.status, long.body]).toEqual([
      400,
      {
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Search query must be 200 characters or fewer.',
        attr: 'search',
      },
    ]);
  });

  it('filters by filters__contains, and refuses filters that are not JSON', async () => {
    const all = await rest(upstream, 'GET', FUNCTIONS);
    const byFilter = await rest(
      upstream,
      'GET',
      `${FUNCTIONS}?filters=${encodeURIComponent(JSON.stringify({ events: [{ id: '$pageview' }] }))}`,
    );
    expect(byFilter.body.count).toBe(
      // A migrated legacy_destination's filters are null.
      all.body.results.filter((f: { filters: { events?: unknown[] } | null }) => f.filters?.events?.length)
        .length,
    );
    const bad = await rest(upstream, 'GET', `${FUNCTIONS}?filters=nope`);
    expect([bad.status, bad.body.attr, bad.body.detail]).toEqual([400, 'filters', 'Invalid filters']);
  });

  it('filters by type, enabled and search, and refuses a search over 200 characters', async () => {
    const legacy = await rest(
      upstream,
      'GET',
      `${FUNCTIONS}?type=legacy_destination,site_destination&enabled=true`,
    );
    expect(legacy.body.results.map((f: { name: string }) => f.name).sort()).toEqual([
      'Banner',
      'S3 Export (migrated)',
      'Webhook Destination (migrated)',
    ]);
    expect(legacy.body.count).toBe(3);
  });

  it('reads the filter set as django-filter does: empty or unknown values filter nothing, bad ones are 400', async () => {
    const all = (await rest(upstream, 'GET', FUNCTIONS)).body.count;
    expect((await rest(upstream, 'GET', `${FUNCTIONS}?type=`)).body.count).toBe(all);
    expect((await rest(upstream, 'GET', `${FUNCTIONS}?enabled=1`)).body.count).toBe(all);
    const off = await rest(upstream, 'GET', `${FUNCTIONS}?enabled=False`);
    expect(off.body.results.map((f: { enabled: boolean }) => f.enabled)).toEqual(
      off.body.results.map(() => false),
    );
    const badId = await rest(upstream, 'GET', `${FUNCTIONS}?id=nope`);
    expect([badId.status, badId.body.attr, badId.body.detail]).toEqual([400, 'id', 'Enter a valid UUID.']);
    const badUser = await rest(upstream, 'GET', `${FUNCTIONS}?created_by=999`);
    expect([badUser.status, badUser.body.attr, badUser.body.code, badUser.body.detail]).toEqual([
      400,
      'created_by',
      'invalid_choice',
      'Select a valid choice. That choice is not one of the available choices.',
    ]);
  });

  it('pages by limit and offset', async () => {
    const { body } = await rest(upstream, 'GET', `${FUNCTIONS}?limit=5`);
    expect(body.results).toHaveLength(5);
    expect(pathOf(body.next)).toBe(`${FUNCTIONS}?limit=5&offset=5`);
  });

  it('asks for hog_function scopes, and is not served by the older dialects', async () => {
    const read = await rest(upstream, 'GET', FUNCTIONS, { key: 'phx_plugin_rw' });
    expect([read.status, read.body.detail]).toEqual([
      403,
      "API key missing required scope 'hog_function:read'",
    ]);
    const older = await startReferenceUpstream({ dialect: 'posthog' });
    try {
      const answer = await rest(older, 'GET', FUNCTIONS);
      expect([answer.status, answer.body.detail]).toEqual([404, 'Endpoint not found.']);
    } finally {
      await older.close();
    }
  });
});
