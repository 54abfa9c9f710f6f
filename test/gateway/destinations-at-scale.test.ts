// destinations reads what a page needs (issue 41, item 4): in a project with 5,000 hog functions
// and plugin configs, a page costs a bounded number of upstream calls wherever it is, and pages
// across the seam between kinds stay exact.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const FUNCTIONS = 2_500;
const CONFIGS = 2_500;
const Q = `query($first: Int, $after: String, $last: Int, $before: String) {
  project(projectId: "2") { destinations(first: $first, after: $after, last: $last, before: $before) {
    totalCount edges { cursor node { __typename name } } pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
  } }
}`;

describe('destinations of a project with 5,000 functions and configs', () => {
  let h: Harness;
  let total = 0;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
    const store = h.upstream.store;
    const template = [...store.hogFunctions.values()].find((f) => f.type === 'destination')!;
    for (let i = 0; i < FUNCTIONS; i++) {
      const id = `018f0a5e-0098-7000-8000-${i.toString(16).padStart(12, '0')}`;
      store.hogFunctions.set(id, {
        ...template,
        id,
        projectId: 2,
        name: `Function ${i}`,
        updatedAtMicros: i,
      });
    }
    const config = [...store.configs.values()].find((c) => c.projectId === 2 && !c.deleted)!;
    for (let i = 0; i < CONFIGS; i++) {
      const { id: _id, createdAtMicros: _c, updatedAtMicros: _u, ...fields } = config;
      store.createConfig({ ...fields, name: `Config ${i}`, order: 1_000 + i });
    }
  });
  afterAll(() => h.close());
  beforeEach(() => h.upstream.clearRequests());

  it('reads the first page in a handful of calls', async () => {
    const { body } = await h.gql(Q, { first: 20 });
    expect(body.errors).toBeUndefined();
    total = body.data.project.destinations.totalCount;
    expect(total).toBeGreaterThan(FUNCTIONS + CONFIGS);
    expect(body.data.project.destinations.edges).toHaveLength(20);
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(5);
  });

  it('reads a page across the seam between functions and configs in a handful of calls, exactly', async () => {
    const first = await h.gql(Q, { first: 100 });
    const functionsCount = (
      first.body.data.project.destinations.edges as { node: { __typename: string } }[]
    ).filter((e) => e.node.__typename === 'HogFunction').length;
    expect(functionsCount).toBe(100);
    // A cursor near the seam, made by walking: the last page of functions ends at FUNCTIONS - 1.
    const seamCursor = Buffer.from(
      JSON.stringify([
        JSON.parse(
          Buffer.from(first.body.data.project.destinations.pageInfo.endCursor, 'base64url').toString(),
        )[0],
        FUNCTIONS - 11,
      ]),
    ).toString('base64url');
    h.upstream.clearRequests();
    const { body } = await h.gql(Q, { first: 20, after: seamCursor });
    expect(body.errors).toBeUndefined();
    const nodes = body.data.project.destinations.edges.map(
      (e: { node: { __typename: string; name: string } }) => e.node,
    );
    expect(nodes.slice(0, 10).every((n: { __typename: string }) => n.__typename === 'HogFunction')).toBe(
      true,
    );
    expect(nodes.slice(10).every((n: { __typename: string }) => n.__typename === 'DestinationConfig')).toBe(
      true,
    );
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(7);
  });

  it('reads the last page backward in a handful of calls', async () => {
    const { body } = await h.gql(Q, { last: 10 });
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinations.edges).toHaveLength(10);
    expect(body.data.project.destinations.pageInfo.hasPreviousPage).toBe(true);
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(6);
  });

  it('searches the functions upstream in one call, and refuses a sort that would read past the request’s calls', async () => {
    const searched = await h.gql(
      `{ project(projectId: "2") { destinations(search: "Function 249", kinds: [HOG_FUNCTION], first: 20) { totalCount } } }`,
    );
    expect(searched.body.errors).toBeUndefined();
    // Function 249 and Function 2490 to 2499.
    expect(searched.body.data.project.destinations.totalCount).toBe(11);
    expect(h.upstreamCalls()).toHaveLength(1);
    h.upstream.clearRequests();
    // A sort reads every kind whole: 5,000 items are more pages than MAX_UPSTREAM_CALLS (50) allows.
    const sorted = await h.gql(
      `{ project(projectId: "2") { destinations(orderBy: {field: NAME}, first: 20) { totalCount } } }`,
    );
    expect(sorted.body.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      reason: 'UPSTREAM_DATA_TOO_LARGE',
    });
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(51);
  });
});
