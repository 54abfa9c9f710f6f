// Introspection counts against limits of its own (MAX_INTROSPECTION_DEPTH, MAX_INTROSPECTION_ALIASES,
// MAX_INTROSPECTION_BYTES), refused with QUERY_TOO_COMPLEX before anything runs; the standard
// introspection queries of GraphiQL, Apollo, Relay and graphql-codegen pass, and an identical
// introspection-only request is answered from the gateway's cache, over HTTP and WebSocket and
// with both executors.
import { type FieldNode, getIntrospectionQuery, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { introspectionAnswers } from '../../src/limits/introspection-cache.ts';
import { introspectionAnswerBytes } from '../../src/limits/introspection-size.ts';
import { schema } from '../../src/schema/index.ts';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/** Thirty aliases of the whole schema, each two levels of `fields` deep: about 5.6 MB answered. */
const nestedAlias = (i: number) =>
  `a${i}: __schema { types { name kind description fields { name description args { name description } type { name kind fields { name description type { name kind } } } } } }`;
const NESTED = `{ ${Array.from({ length: 30 }, (_, i) => nestedAlias(i)).join(' ')} }`;

/** What graphql-codegen and Apollo's tooling ask: the standard query with every option on. */
const WITH_EVERY_OPTION = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
});

function estimatedBytes(query: string): number {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])),
  );
  const roots = operation.selectionSet.selections as FieldNode[];
  return introspectionAnswerBytes(schema, roots, fragments as never, Number.MAX_SAFE_INTEGER);
}

describe.each(['compiled', 'graphql-js'])('introspection with EXECUTOR=%s', (executor) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { EXECUTOR: executor } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('refuses thirty aliases of nested introspection before running it: a small answer, no upstream call', async () => {
    expect(NESTED.length).toBeGreaterThan(5_000);
    const computed = introspectionAnswers.computed;
    const { status, body, headers } = await h.gql(NESTED, {}, null);
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(
      body.errors.map(() => 'QUERY_TOO_COMPLEX'),
    );
    const measures = body.errors.map((e: { extensions: { measure: string } }) => e.extensions.measure);
    expect(measures).toContain('introspectionAliases');
    expect(measures).toContain('introspectionBytes');
    expect(Number(headers.get('content-length') ?? JSON.stringify(body).length)).toBeLessThan(2_000);
    expect(introspectionAnswers.computed).toBe(computed);
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses introspection deeper than MAX_INTROSPECTION_DEPTH, naming the measure', async () => {
    const deep = `{ __type(name: "Query") { fields { type ${'{ ofType '.repeat(18)}{ name }${' }'.repeat(18)} } } }`;
    const { body } = await h.gql(deep, {}, null);
    expect(body.errors.map((e: { extensions: unknown }) => e.extensions)).toContainEqual(
      expect.objectContaining({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'introspectionDepth',
        figure: 22,
        limit: 20,
      }),
    );
  });

  it('refuses an answer over MAX_INTROSPECTION_BYTES even with few aliases', async () => {
    // Each alias answers about 190 KB: eight are about 1.5 MB.
    const wide = `{ ${[1, 2, 3, 4, 5, 6, 7, 8].map(nestedAlias).join(' ')} }`;
    const { body } = await h.gql(wide, {}, null);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'introspectionBytes',
    });
    expect(body.errors[0].extensions.figure).toBeGreaterThan(body.errors[0].extensions.limit);
  });

  it('answers the standard introspection queries, the second identical one from the cache', async () => {
    for (const query of [getIntrospectionQuery(), WITH_EVERY_OPTION]) {
      const { computed, served } = introspectionAnswers;
      const first = await h.gql(query, {}, null);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data.__schema.queryType.name).toBe('Query');
      // The size worked out before running is the answer's, within a few percent.
      const actual = JSON.stringify(first.body.data).length;
      expect(Math.abs(estimatedBytes(query) - actual)).toBeLessThan(actual * 0.02);
      const second = await h.gql(query, {}, 'phx_read');
      expect(second.body).toEqual(first.body);
      expect(introspectionAnswers.computed).toBe(computed + 1);
      expect(introspectionAnswers.served).toBe(served + 1);
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('keeps a document that reads more than introspection out of the cache', async () => {
    const { computed, served } = introspectionAnswers;
    const query = '{ __schema { queryType { name } } project(projectId: "1") { name } }';
    const first = await h.gql(query);
    const second = await h.gql(query);
    expect(second.body).toEqual(first.body);
    expect(introspectionAnswers.computed).toBe(computed);
    expect(introspectionAnswers.served).toBe(served);
    expect(h.upstreamCalls()).toHaveLength(2);
  });

  it('over WebSocket: refuses the nested introspection, and serves the standard one from the cache', async () => {
    const refused = subscribe(h, 'ws', 'phx_full', NESTED);
    const refusal = await refused.next();
    expect(refusal.value.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    refused.dispose();
    const query = getIntrospectionQuery().replace('query IntrospectionQuery', 'query OverWebSocket');
    const answers = [];
    const { computed, served } = introspectionAnswers;
    for (let i = 0; i < 2; i++) {
      const s = subscribe(h, 'ws', 'phx_read', query);
      answers.push((await s.next()).value);
      s.dispose();
    }
    expect(answers[0].errors).toBeUndefined();
    expect(answers[1]).toEqual(answers[0]);
    expect(introspectionAnswers.computed).toBe(computed + 1);
    expect(introspectionAnswers.served).toBe(served + 1);
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});

describe('introspection limits as set', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { MAX_INTROSPECTION_BYTES: '65536', MAX_INTROSPECTION_DEPTH: '4', MAX_INTROSPECTION_ALIASES: '1' },
    });
  });
  afterAll(() => h.close());

  it('refuses what the settings refuse, each measure with its own limit', async () => {
    const { body } = await h.gql(`{ a: __schema { b: types { name } } }`, {}, null);
    expect(body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ measure: 'introspectionAliases', figure: 2, limit: 1 }),
      }),
    ]);
    const standard = await h.gql(getIntrospectionQuery(), {}, null);
    const measures = standard.body.errors.map((e: { extensions: { measure: string; limit: number } }) => [
      e.extensions.measure,
      e.extensions.limit,
    ]);
    expect(measures).toEqual([
      ['introspectionDepth', 4],
      ['introspectionBytes', 65536],
    ]);
  });
});
