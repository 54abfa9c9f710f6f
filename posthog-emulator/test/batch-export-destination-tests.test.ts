// GET /api/projects/:id/batch_exports/test/?destination=<type>, as BatchExportViewSet.test serves
// it (products/batch_exports/backend/presentation/views/batch_export/exports.py@0551d5e): a list
// action (so `test` is never read as an export id) with required_scopes batch_export:read, so a
// personal key with that scope is answered; no `destination` is an empty 400, a type
// get_destination_test does not know an empty 404 (destination_tests/__init__.py, code-index id
// 70770660397), else the unconfigured test's steps, each with `result: null` (DestinationTest.as_dict).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { EXPORTS } from './batch-export-fixtures.ts';
import { rest } from './rest.ts';

const TEST = `${EXPORTS}test/`;

describe('batch export destination tests, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  const stepNames = async (destination: string) => {
    const answer = await rest(upstream, 'GET', `${TEST}?destination=${destination}`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['steps']);
    for (const step of answer.body.steps)
      expect(Object.keys(step)).toEqual(['name', 'description', 'result']);
    expect(answer.body.steps.every((s: { result: unknown }) => s.result === null)).toBe(true);
    return answer.body.steps.map((s: { name: string }) => s.name);
  };

  it('answers the steps of each destination type that has a test', async () => {
    expect(await stepNames('AwsS3')).toEqual([
      'Ensure we can assume provided AWS role',
      'Check S3 bucket exists',
    ]);
    expect(await stepNames('S3Compatible')).toEqual(['Check S3 bucket exists']);
    expect(await stepNames('BigQuery')).toEqual([
      'Impersonate BigQuery service account',
      'Verify BigQuery service account ownership',
      'Verify BigQuery project',
      'Verify BigQuery dataset',
      'Verify BigQuery table',
    ]);
    expect(await stepNames('Snowflake')).toEqual([
      'Establish connection to Snowflake',
      'Verify Snowflake warehouse',
      'Verify Snowflake database',
      'Verify Snowflake schema',
    ]);
    expect(await stepNames('Databricks')).toEqual([
      'Establish connection to Databricks',
      'Verify Databricks catalog',
      'Verify Databricks schema',
      'Verify Databricks table',
      'Verify permissions to create a Databricks volume',
    ]);
    expect(await stepNames('AzureBlob')).toEqual(['Check Azure Blob container exists']);
    const bucket = await rest(upstream, 'GET', `${TEST}?destination=S3Compatible`);
    expect(bucket.body.steps[0].description).toBe(
      'Ensure the configured S3 bucket exists and that we have the required permissions to access it.',
    );
  });

  it('answers an empty 400 without a destination and an empty 404 for a type without a test', async () => {
    for (const query of ['', '?destination=']) {
      const answer = await rest(upstream, 'GET', `${TEST}${query}`);
      expect([answer.status, answer.text]).toEqual([400, '']);
    }
    for (const type of ['S3', 'Postgres', 'Redshift', 'HTTP', 'awss3']) {
      const answer = await rest(upstream, 'GET', `${TEST}?destination=${type}`);
      expect([type, answer.status, answer.text]).toEqual([type, 404, '']);
    }
  });

  it('asks a personal key for batch_export:read', async () => {
    const refused = await rest(upstream, 'GET', `${TEST}?destination=AwsS3`, { key: 'phx_read' });
    expect([refused.status, refused.body.detail]).toEqual([
      403,
      "API key missing required scope 'batch_export:read'",
    ]);
  });
});
