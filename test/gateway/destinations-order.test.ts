// Project.destinations(orderBy:) in each dialect (issue 67 part 3): a total order (the field, then
// kind, then id; DESC the reverse of ASC), pages forward and backward that join up under each
// order, with a search too, within the estimate; a cursor of another order is refused with no
// upstream call; no orderBy keeps the default order and its cursors.
import { getOperationAST, parse } from 'graphql';
import { ALL_DIALECTS } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateOperation } from '../../src/schema/cost/estimate.ts';
import { schema } from '../../src/schema/index.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const Q = `query($project: String!, $kinds: [DestinationKind!], $search: String, $orderBy: DestinationOrder, $first: Int, $after: String, $last: Int, $before: String) {
  project(projectId: $project) { destinations(kinds: $kinds, search: $search, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
    totalCount edges { cursor node { __typename id name updatedAt } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

interface Node {
  __typename: string;
  id: string;
  name: string | null;
  updatedAt: string | null;
}
interface Page {
  totalCount: number;
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
}
type Order = { field: 'NAME' | 'UPDATED_AT' | 'KIND'; direction: 'ASC' | 'DESC' };

const KINDS = ['HogFunction', 'DestinationConfig', 'BatchExport'];
const ORDERS: Order[] = (['NAME', 'UPDATED_AT', 'KIND'] as const).flatMap((field) =>
  (['ASC', 'DESC'] as const).map((direction) => ({ field, direction })),
);
const PAGE = 40;

const estimated = (variables: Record<string, unknown>) => {
  const document = parse(Q);
  return estimateOperation(schema, document, getOperationAST(document)!, variables)!.upstreamCalls;
};

/** The field's value as ASC orders it, nulls last. */
function before(a: Node, b: Node, field: Order['field']): number {
  const value = (n: Node) =>
    field === 'NAME'
      ? n.name?.toLowerCase()
      : field === 'KIND'
        ? KINDS.indexOf(n.__typename)
        : n.updatedAt && Date.parse(n.updatedAt);
  const [x, y] = [value(a), value(b)];
  if (x === y || x == null || y == null) return x == null && y != null ? 1 : y == null && x != null ? -1 : 0;
  return x < y ? -1 : 1;
}

describe.each(ALL_DIALECTS)('destinations(orderBy:), %s dialect', (dialect) => {
  let h: Harness;
  const page = async (variables: Record<string, unknown>) => {
    h.reset();
    const all = { project: '1', ...variables };
    const { body } = await h.gql(Q, all);
    expect(body.errors).toBeUndefined();
    const made = h.upstreamCalls().length;
    expect(made).toBeLessThanOrEqual(estimated(all));
    return body.data.project.destinations as Page;
  };
  const forward = async (variables: Record<string, unknown>) => {
    const edges: Page['edges'] = [];
    let after: string | null = null;
    let last: Page;
    do {
      last = await page({ ...variables, first: PAGE, after });
      edges.push(...last.edges);
      after = last.pageInfo.endCursor;
    } while (last.pageInfo.hasNextPage);
    return { edges, totalCount: last.totalCount };
  };
  const backward = async (variables: Record<string, unknown>) => {
    const edges: Page['edges'] = [];
    let before: string | null = null;
    let last: Page;
    do {
      last = await page({ ...variables, last: PAGE, before });
      edges.unshift(...last.edges);
      before = last.pageInfo.startCursor;
    } while (last.pageInfo.hasPreviousPage);
    return edges;
  };
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());

  it.each(ORDERS)('pages forward and backward through the same list, ordered by %o', async (order) => {
    const { edges, totalCount } = await forward({ orderBy: order });
    const ids = edges.map((e) => e.node.id);
    expect(ids).toHaveLength(totalCount);
    expect(new Set(ids).size).toBe(totalCount);
    const sign = order.direction === 'ASC' ? 1 : -1;
    for (let i = 1; i < edges.length; i++) {
      const [a, b] = [edges[i - 1]!.node, edges[i]!.node];
      const byField = sign * before(a, b, order.field);
      expect(byField, `${a.name} then ${b.name}`).toBeLessThanOrEqual(0);
      // Ties go by kind (then id): the kinds do not go back within a tie.
      if (byField === 0)
        expect(sign * (KINDS.indexOf(a.__typename) - KINDS.indexOf(b.__typename))).toBeLessThanOrEqual(0);
    }
    const back = await backward({ orderBy: order });
    expect(back.map((e) => e.node.id)).toEqual(ids);
    // The same position has the same cursor whichever way it was reached.
    expect(back.map((e) => e.cursor)).toEqual(edges.map((e) => e.cursor));
  });

  it('reads each kind whole for a sorted page, each upstream page once, and no more than the estimate', async () => {
    await page({ first: 5, orderBy: { field: 'UPDATED_AT', direction: 'DESC' } });
    const lists = h.upstreamCalls().filter((c) => !/\/\d+\/$/.test(c.path));
    const read = lists.map((c) => `${c.path}?${c.query}`);
    expect(new Set(read).size).toBe(read.length);
    const configPages = lists.filter((c) => c.path.endsWith('/pipeline_destination_configs/'));
    const configs = (await page({ first: 1, kinds: ['PLUGIN_CONFIG'] })).totalCount;
    // Every page of configs the list holds (superseded ones included), however few a page shows.
    expect(configPages.length).toBeGreaterThanOrEqual(Math.ceil(configs / 100));
    expect(lists.filter((c) => c.path.endsWith('/batch_exports/'))).toHaveLength(1);
  });

  it('reads DESC as the exact reverse of ASC, and every kind the default list holds', async () => {
    const asc = await forward({ orderBy: { field: 'NAME', direction: 'ASC' } });
    const desc = await forward({ orderBy: { field: 'NAME', direction: 'DESC' } });
    expect(desc.edges.map((e) => e.node.id)).toEqual(asc.edges.map((e) => e.node.id).reverse());
    const plain = await forward({});
    expect(asc.totalCount).toBe(plain.totalCount);
    expect(asc.edges.map((e) => e.node.id).sort()).toEqual(plain.edges.map((e) => e.node.id).sort());
  });

  it('keeps the default order and its cursors when orderBy is left out (a direction defaults to ASC)', async () => {
    const plain = await page({ first: 3 });
    const explicitNull = await page({ first: 3, orderBy: null });
    expect(explicitNull).toEqual(plain);
    const kinds = (await forward({})).edges.map((e) => KINDS.indexOf(e.node.__typename));
    expect(kinds).toEqual([...kinds].sort((a, b) => a - b));
    const noDirection = await page({ first: 5, orderBy: { field: 'UPDATED_AT' } });
    const asc = await page({ first: 5, orderBy: { field: 'UPDATED_AT', direction: 'ASC' } });
    expect(noDirection).toEqual(asc);
  });

  it('sorts a searched list and pages it both ways, counting only the matches', async () => {
    const order = { field: 'NAME', direction: 'DESC' };
    const { edges, totalCount } = await forward({ orderBy: order, search: 'export' });
    expect(totalCount).toBe(edges.length);
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((e) => e.node.name?.toLowerCase().includes('export'))).toBe(true);
    const back = await backward({ orderBy: order, search: 'export' });
    expect(back.map((e) => e.node.id)).toEqual(edges.map((e) => e.node.id));
  });

  it('refuses a cursor of another order, direction or search before any upstream call', async () => {
    const byName = await page({ first: 2, orderBy: { field: 'NAME', direction: 'ASC' } });
    const plain = await page({ first: 2 });
    h.reset();
    const attempts: Record<string, unknown>[] = [
      { orderBy: { field: 'UPDATED_AT', direction: 'ASC' }, after: byName.pageInfo.endCursor },
      { orderBy: { field: 'NAME', direction: 'DESC' }, before: byName.pageInfo.endCursor },
      { orderBy: { field: 'NAME', direction: 'ASC' }, search: 'export', after: byName.pageInfo.endCursor },
      { after: byName.pageInfo.endCursor },
      { orderBy: { field: 'KIND', direction: 'ASC' }, after: plain.pageInfo.endCursor },
    ];
    for (const variables of attempts) {
      const { body } = await h.gql(Q, { project: '1', first: 2, ...variables });
      expect(body.errors[0].extensions.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
      expect(body.errors[0].message).toContain('another list');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});
