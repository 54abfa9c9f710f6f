// The 2026 dialect reads a write's `destination.config` against the workflow inputs of its type,
// as BatchExportDestinationSerializer.validate does (products/batch_exports/backend/presentation/
// views/batch_export/destinations.py@475d263; the inputs: products/batch_exports/backend/
// service.py@02b1f51): a key no inputs dataclass declares is a 400 on create, PUT and PATCH.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { EXPORTS, newS3, POSTGRES, S3 } from './batch-export-fixtures.ts';
import { rest } from './rest.ts';

const withConfig = (extra: Record<string, unknown>) =>
  newS3({ destination: { ...newS3().destination, config: { ...newS3().destination.config, ...extra } } });

describe('batch export destination config keys, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('refuses a create whose config has a key the type does not know, before a missing one', async () => {
    const before = upstream.store.batchExports.exports.size;
    const answer = await rest(upstream, 'POST', EXPORTS, {
      json: withConfig({ nope: 1, aws_secret_access_key: 's' }),
    });
    expect([answer.status, answer.body.attr, answer.body.detail]).toEqual([
      400,
      'destination__non_field_errors',
      "Configuration has unknown field/s: 'aws_secret_access_key', 'nope'",
    ]);
    const missing = await rest(upstream, 'POST', EXPORTS, {
      json: newS3({
        destination: { type: 'AwsS3', integration_id: 1, config: { bucket_name: 'b', nope: 1 } },
      }),
    });
    expect(missing.body.detail).toBe("Configuration has unknown field/s: 'nope'");
    expect(upstream.store.batchExports.exports.size).toBe(before);
  });

  it('refuses the key on PATCH and PUT too, and changes nothing', async () => {
    const patch = await rest(upstream, 'PATCH', `${EXPORTS}${POSTGRES}/`, {
      json: { destination: { type: 'Postgres', config: { nope: 'x' } } },
    });
    expect([patch.status, patch.body.detail]).toEqual([400, "Configuration has unknown field/s: 'nope'"]);
    const put = await rest(upstream, 'PUT', `${EXPORTS}${S3}/`, { json: withConfig({ nope: true }) });
    expect([put.status, put.body.detail]).toEqual([400, "Configuration has unknown field/s: 'nope'"]);
    expect(upstream.store.batchExports.exports.get(POSTGRES)!.destination.config).not.toHaveProperty('nope');
  });

  it('accepts the keys the inputs declare, their own and the shared ones', async () => {
    const created = await rest(upstream, 'POST', EXPORTS, {
      json: withConfig({
        compression: 'gzip',
        kms_key_id: null,
        max_file_size_mb: 10,
        exclude_events: ['$pageview'],
      }),
    });
    expect(created.status).toBe(201);
    const postgres = await rest(upstream, 'PATCH', `${EXPORTS}${POSTGRES}/`, {
      json: { destination: { type: 'Postgres', config: { host: 'db.example.com', port: 5433, user: 'u' } } },
    });
    expect(postgres.status).toBe(200);
  });

  it('converts a text number or boolean to the declared type, and refuses what does not convert', async () => {
    const converted = await rest(upstream, 'PATCH', `${EXPORTS}${POSTGRES}/`, {
      json: { destination: { type: 'Postgres', config: { has_self_signed_cert: 'true' } } },
    });
    expect([converted.status, converted.body.destination.config.has_self_signed_cert]).toEqual([200, true]);
    const wrong = await rest(upstream, 'PATCH', `${EXPORTS}${POSTGRES}/`, {
      json: { destination: { type: 'Postgres', config: { database: 5 } } },
    });
    expect([wrong.status, wrong.body.detail]).toEqual([
      400,
      "Configuration has invalid type: got 'int', expected 'str'",
    ]);
  });
});
