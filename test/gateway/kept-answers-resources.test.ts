// What a change drops of the answers kept (UPSTREAM_CACHE_TTL_MS, upstream/kept/answers.ts): the
// resource it changed, not the rest of its project. A batch export paused through the gateway
// drops what is kept of batch exports, and none of the project's hog functions; counted in the
// reference upstream's request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const S3_HOURLY = '018f0a5e-0020-7000-8000-000000000001';
const EXPORT = `{ project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") { id paused } } }`;
const FUNCTIONS = '{ project(projectId: "1") { hogFunctions(first: 2) { edges { node { name } } } } }';
const PAUSE = 'mutation($id: ID!) { pauseBatchExport(input: {id: $id}) { batchExport { paused } } }';

describe('a change drops what is kept of the resource it changed', () => {
  let h: Harness;
  const gets = (part: string) => h.upstreamCalls({ method: 'GET' }).filter((c) => c.path.includes(part));

  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: { UPSTREAM_CACHE_TTL_MS: '600000' } });
  });
  afterAll(() => h.close());

  it('re-reads the batch export after a pause, and keeps answering the hog functions', async () => {
    const exported = await h.gql(EXPORT);
    const functions = await h.gql(FUNCTIONS);
    expect(exported.body.errors).toBeUndefined();
    expect(functions.body.errors).toBeUndefined();
    const exportReads = gets(`/batch_exports/${S3_HOURLY}/`).length;
    const functionReads = gets('/hog_functions/').length;
    expect(exportReads).toBe(1);
    expect(functionReads).toBe(1);

    const paused = await h.gql(PAUSE, { id: exported.body.data.project.batchExport.id });
    expect(paused.body.errors).toBeUndefined();

    const after = await h.gql(EXPORT);
    expect(after.body.data.project.batchExport.paused).toBe(true);
    expect(gets(`/batch_exports/${S3_HOURLY}/`)).toHaveLength(exportReads + 1);
    expect((await h.gql(FUNCTIONS)).body.data).toEqual(functions.body.data);
    expect(gets('/hog_functions/')).toHaveLength(functionReads);
  });
});
