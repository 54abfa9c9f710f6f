// The `/api/environments/:id/` aliases of the destination routes, gone from PostHog: hog functions,
// their templates and plugin configs (pipeline_destination_configs) are registered under /api/projects/ only
// (products/cdp/backend/routes.py, code-index ids 56186560844 and 65800637553), and so are batch
// exports with their runs and backfills (products/batch_exports/backend/routes.py, code-index ids
// 70293837941 and 71322337822); any other path is PostHog's JSON 404 "Endpoint not found."
// (posthog/api/__init__.py). Each is answered so whatever the method or key, while the same path
// under /api/projects/ is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Endpoint not found.', attr: null };
const S3 = '018f0a5e-0020-7000-8000-000000000001';

describe('the /api/environments/ aliases, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());

  it('answers every destination route under /api/environments/ 404 "Endpoint not found."', async () => {
    const fn = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Webhook to ops')!.id;
    const config = [...upstream.store.configs.values()].find((c) => c.projectId === 1)!.id;
    const paths = [
      'hog_functions/',
      `hog_functions/${fn}/`,
      `hog_functions/${fn}/logs/`,
      'hog_function_templates/',
      'hog_function_templates/template-webhook/',
      'pipeline_destination_configs/',
      `pipeline_destination_configs/${config}/`,
      'batch_exports/',
      `batch_exports/${S3}/`,
      `batch_exports/${S3}/runs/`,
      `batch_exports/${S3}/backfills/`,
      'batch_exports/test/?destination=AwsS3',
    ];
    for (const path of paths) {
      for (const [method, key] of [
        ['GET', 'phx_full'],
        ['POST', 'phx_full'],
        ['GET', 'phx_read'],
        ['GET', null],
      ] as const) {
        const answer = await rest(upstream, method, `/api/environments/1/${path}`, {
          key,
          ...(method === 'POST' ? { json: {} } : {}),
        });
        expect([path, method, key, answer.status, answer.body]).toEqual([path, method, key, 404, NOT_FOUND]);
      }
      const projects = await rest(upstream, 'GET', `/api/projects/1/${path}`);
      expect([path, projects.status]).toEqual([path, 200]);
    }
  });
});
