// UPSTREAM_MAX_RESPONSE_BYTES: an upstream answer larger than it is refused as malformed, whether
// its Content-Length says so up front or its chunks add up to it as they come, and not retried;
// an answer within it reads whole, also when it comes in more than one chunk.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const LIMIT = 4096;
const LIST = '/api/projects/1/pipeline_destination_configs/';
/** The project (about 250 bytes) and a page of configs: 100 of them are about 44 KB, 2 about 1 KB. */
const query = (first: number) =>
  `{ project(projectId: "1") { name destinationConfigs(first: ${first}) { totalCount edges { node { databaseId } } } } }`;

describe('the size limit on upstream answers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec', env: { UPSTREAM_MAX_RESPONSE_BYTES: String(LIMIT) } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  function expectRefused(body: Awaited<ReturnType<Harness['gql']>>['body']) {
    expect(body.data.project.name).toBe('Hedgebox (production)');
    expect(body.data.project.destinationConfigs).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      path: ['project', 'destinationConfigs'],
      extensions: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    // Not retried: the same answer would come again.
    expect(h.upstreamCalls({ path: LIST })).toHaveLength(1);
  }

  it('refuses an answer whose Content-Length is over the limit, and serves the rest', async () => {
    const { body } = await h.gql(query(100));
    expectRefused(body);
  });

  it('refuses an answer without a Content-Length once its chunks pass the limit', async () => {
    // slow-body sends the answer chunked, in two halves.
    h.upstream.faults.add({ path: LIST, method: 'GET', action: { kind: 'slow-body', ms: 20 } });
    const { body } = await h.gql(query(100));
    expectRefused(body);
  });

  it('reads a chunked answer within the limit whole', async () => {
    const whole = await h.gql(query(2));
    h.upstream.faults.add({ path: LIST, method: 'GET', action: { kind: 'slow-body', ms: 20 } });
    const { body } = await h.gql(query(2));
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinationConfigs.edges).toHaveLength(2);
    expect(body).toEqual(whole.body);
  });
});
