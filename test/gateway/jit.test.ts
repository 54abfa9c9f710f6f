// Compiled execution (graphql-jit) answers as graphql-js does, including where graphql-jit alone
// would not: documents with several operations, and non-null variables with defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jitCanRun } from '../../src/jit.ts';
import { type Harness, startHarness } from '../support/harness.ts';

describe('compiled execution', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const TWO = `query First { project(projectId: "1") { name } }
    query Second { project(projectId: "2") { name } }`;

  it('runs the operation named, in a document holding several, each time', async () => {
    for (const [operationName, name] of [
      ['First', 'Hedgebox (production)'],
      ['Second', 'Hedgebox (staging)'],
      ['First', 'Hedgebox (production)'],
    ] as const) {
      const { body } = await h.post(JSON.stringify({ query: TWO, operationName }), {
        authorization: 'Bearer phx_full',
      });
      expect(body).toEqual({ data: { project: { name } } });
    }
  });

  it('applies the default of a non-null variable left out', async () => {
    const { body } = await h.gql('query($p: String! = "2") { project(projectId: $p) { name } }');
    expect(body).toEqual({ data: { project: { name: 'Hedgebox (staging)' } } });
  });

  it('compiles single-operation documents and leaves the two cases above to graphql-js', async () => {
    const { parse } = await import('graphql');
    expect(jitCanRun(parse('query($p: String!) { project(projectId: $p) { name } }'))).toBe(true);
    expect(jitCanRun(parse(TWO))).toBe(false);
    expect(jitCanRun(parse('query($p: String! = "2") { project(projectId: $p) { name } }'))).toBe(false);
  });
});
