// Project.destinations(search:) in each dialect (issue 67 part 3): the term goes to PostHog's hog
// function list and is applied by the gateway to configs and batch exports (name or description,
// any case); PostHog's fuzzy tier is left out; totalCount counts the filtered list; a bad term
// costs no upstream call; and no search reads more than the estimate the limits check.
import { getOperationAST, parse } from 'graphql';
import { ALL_DIALECTS } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateOperation } from '../../src/schema/cost/estimate.ts';
import { schema } from '../../src/schema/index.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const Q = `query($project: String!, $search: String, $first: Int, $after: String) {
  project(projectId: $project) { destinations(search: $search, first: $first, after: $after) {
    totalCount edges { cursor node { __typename id name
      ... on HogFunction { description } ... on DestinationConfig { description } } }
    pageInfo { hasNextPage endCursor } } } }`;

interface Node {
  __typename: string;
  id: string;
  name: string | null;
  description?: string | null;
}
type Page = {
  totalCount: number;
  edges: { node: Node }[];
  pageInfo: { hasNextPage: boolean; endCursor: string };
};

const FUNCTIONS = '/api/projects/1/hog_functions/';
const CONFIGS = '/api/projects/1/pipeline_destination_configs/';
const EXPORTS = '/api/projects/1/batch_exports/';

/** The most upstream calls the limits plugin lets the operation make. */
const estimated = (query: string, variables: Record<string, unknown>) => {
  const document = parse(query);
  return estimateOperation(schema, document, getOperationAST(document)!, variables)!.upstreamCalls;
};

const holds = (node: Node, term: string) =>
  [node.name, node.description].some((t) => typeof t === 'string' && t.toLowerCase().includes(term));

describe.each(ALL_DIALECTS)('destinations(search:), %s dialect', (dialect) => {
  let h: Harness;
  /** Every destination of project 1, in the default order, paged through. */
  let all: Node[] = [];
  const read = async (variables: Record<string, unknown>) => {
    const { body } = await h.gql(Q, { project: '1', first: 100, ...variables });
    expect(body.errors).toBeUndefined();
    return body.data.project.destinations as Page;
  };
  const readAll = async (search: string | null) => {
    const nodes: Node[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Page = await read({ search, after });
      nodes.push(...page.edges.map((e) => e.node));
      if (!page.pageInfo.hasNextPage) return { nodes, totalCount: page.totalCount };
      after = page.pageInfo.endCursor;
    }
  };
  beforeAll(async () => {
    h = await startHarness({ dialect });
    all = (await readAll(null)).nodes;
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it.each([
    'export',
    'SLACK',
    'webhook',
  ])('keeps what holds %s in its name or description, counted', async (term) => {
    const { nodes, totalCount } = await readAll(term);
    const expected = all.filter((n) => holds(n, term.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    expect(nodes.map((n) => n.id).sort()).toEqual(expected.map((n) => n.id).sort());
    expect(totalCount).toBe(expected.length);
    // The kinds keep their order: hog functions, then configs, then batch exports.
    const kinds = nodes.map((n) => ['HogFunction', 'DestinationConfig', 'BatchExport'].indexOf(n.__typename));
    expect(kinds).toEqual([...kinds].sort((a, b) => a - b));
  });

  it('sends the term to the hog function list only, and reads within the estimate', async () => {
    const variables = { project: '1', search: 'export', first: 100 };
    const { body } = await h.gql(Q, variables);
    expect(body.errors).toBeUndefined();
    const functionReads = h.upstreamCalls({ path: FUNCTIONS });
    const searched = functionReads.filter((c) => new URLSearchParams(c.query).get('search') === 'export');
    expect(searched).toHaveLength(1);
    // The legacy_destinations that supersede configs, read unsearched.
    expect(functionReads.filter((c) => !c.query.includes('search='))).toHaveLength(1);
    expect(h.upstreamCalls({ path: CONFIGS }).every((c) => !c.query.includes('search'))).toBe(true);
    expect(h.upstreamCalls({ path: EXPORTS }).every((c) => !c.query.includes('search'))).toBe(true);
    // Configs are read whole (PostHog cannot search them): every page, once each.
    const configPages = h
      .upstreamCalls({ path: CONFIGS })
      .map((c) => new URLSearchParams(c.query).get('offset'));
    expect(new Set(configPages).size).toBe(configPages.length);
    expect(h.upstreamCalls().length).toBeLessThanOrEqual(estimated(Q, variables));
  });

  it('treats a blank term as none: the same list, cursors and calls', async () => {
    const plain = await read({});
    const calls = h.upstreamCalls().length;
    h.reset();
    const blank = await read({ search: '  ' });
    expect(blank).toEqual(plain);
    expect(h.upstreamCalls()).toHaveLength(calls);
    expect(h.upstreamCalls().every((c) => !c.query.includes('search='))).toBe(true);
  });

  it('refuses a term over 200 characters before any upstream call', async () => {
    const { body } = await h.gql(Q, { project: '1', search: 'x'.repeat(201) });
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0].message).toContain('200 characters');
    expect(h.upstreamCalls()).toHaveLength(0);
    const atBound = await h.gql(Q, { project: '1', search: 'x'.repeat(200) });
    expect(atBound.body.errors).toBeUndefined();
    expect(atBound.body.data.project.destinations.totalCount).toBe(0);
  });

  it('refuses a cursor of another search (or of no search) before any upstream call', async () => {
    const exports = await read({ search: 'export', first: 1 });
    const plain = await read({ first: 1 });
    h.reset();
    for (const [search, after] of [
      ['slack', exports.pageInfo.endCursor],
      [null, exports.pageInfo.endCursor],
      ['export', plain.pageInfo.endCursor],
    ]) {
      const { body } = await h.gql(Q, { project: '1', search, after });
      expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
      expect(body.errors[0].message).toContain('another list');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});

describe('destinations(search:) and PostHog’s fuzzy matches, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  it('leaves out the functions PostHog answers only as `similar` (no exact match)', async () => {
    // PostHog answers its trigram tier for a typo: "Webhook to ops" and "Webhook Destination (migrated)".
    const upstream = await fetch(new URL(`${FUNCTIONS}?search=webhok`, h.upstream.url), {
      headers: { authorization: 'Bearer phx_full' },
    });
    const answer = (await upstream.json()) as { results: { search_match_type: string }[] };
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.every((r) => r.search_match_type === 'similar')).toBe(true);
    h.reset();
    const { body } = await h.gql(Q, { project: '1', search: 'webhok', first: 100 });
    expect(body.errors).toBeUndefined();
    expect(body.data.project.destinations).toMatchObject({ totalCount: 0, edges: [] });
    expect(h.upstreamCalls({ path: FUNCTIONS }).some((c) => c.query.includes('search=webhok'))).toBe(true);
  });
});
