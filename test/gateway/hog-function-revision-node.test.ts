// node(id:) and nodes(ids:) with a revision's global id (`HogFunctionRevision:<project>:<uuid>:<version>`,
// issue 64), against the reference upstream's posthog-2026 dialect: the revision is read with one
// call (GET …/revisions/:version/), a version the function lacks is null, a key without
// hog_function:read is FORBIDDEN, and a malformed id is BAD_USER_INPUT without any call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const WEBHOOK = '018f0a5e-0007-7000-8000-000000000001';
const REVISIONS = `/api/projects/1/hog_functions/${WEBHOOK}/revisions/`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const revisionId = (version: number | string) => b64(`HogFunctionRevision:1:${WEBHOOK}:${version}`);
const NODE =
  'query($id: ID!) { node(id: $id) { __typename id ... on HogFunctionRevision { version hog hogFunction { name } } } }';

describe('a hog function revision by its global id', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
    // A config change: versions 1 (the seeded config) and 2 stored as revisions.
    await h.gql(
      `mutation { updateHogFunction(input: {id: "${b64(`HogFunction:1:${WEBHOOK}`)}", hog: "return 1"}) { hogFunction { version } } }`,
    );
  });
  afterAll(() => h.close());

  /** The upstream calls `run` makes. */
  const callsOf = async <T>(run: () => Promise<T>) => {
    const before = h.upstreamCalls().length;
    const result = await run();
    return { result, calls: h.upstreamCalls().slice(before) };
  };

  it('reads the revision with one call, and answers the id it was asked by', async () => {
    const listed = await h.gql(
      `{ node(id: "${b64(`HogFunction:1:${WEBHOOK}`)}") { ... on HogFunction { revisions(first: 5) { edges { node { id version } } } } } }`,
    );
    const oldest = listed.body.data.node.revisions.edges.at(-1).node;
    expect(oldest).toEqual({ id: revisionId(1), version: 1 });
    const { result, calls } = await callsOf(() =>
      h.gql('query($id: ID!) { node(id: $id) { id ... on HogFunctionRevision { version hog } } }', {
        id: oldest.id,
      }),
    );
    expect(result.body).toEqual({
      data: { node: { id: revisionId(1), version: 1, hog: "fetch(inputs.url, {'body': event})" } },
    });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${REVISIONS}1/`]);
  });

  it('answers null for a version the function does not have, and each of nodes on its own', async () => {
    const missing = await h.gql(NODE, { id: revisionId(999) });
    expect(missing.body).toEqual({ data: { node: null } });
    const both = await h.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on HogFunctionRevision { version } } }',
      {
        ids: [revisionId(2), revisionId('01')],
      },
    );
    expect(both.body.data.nodes).toEqual([{ version: 2 }, null]);
    expect(both.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'BAD_USER_INPUT',
    ]);
  });

  it('is FORBIDDEN to a key without hog_function:read', async () => {
    const answer = await h.gql(NODE, { id: revisionId(1) }, 'phx_batch_read');
    expect(answer.body.data.node).toBeNull();
    expect(answer.body.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'hog_function:read',
    });
  });

  it.each([
    ['a version with a leading zero', `HogFunctionRevision:1:${WEBHOOK}:01`],
    ['a negative version', `HogFunctionRevision:1:${WEBHOOK}:-1`],
    ['a version that is not a number', `HogFunctionRevision:1:${WEBHOOK}:two`],
    ['a version past an Int', `HogFunctionRevision:1:${WEBHOOK}:12345678901`],
    ['no version', `HogFunctionRevision:1:${WEBHOOK}`],
    ['no function', 'HogFunctionRevision:1:2'],
    ['a function id that is not a UUID', 'HogFunctionRevision:1:not-a-uuid:2'],
  ])('refuses %s as BAD_USER_INPUT without calling the upstream', async (_case, text) => {
    const { result, calls } = await callsOf(() => h.gql(NODE, { id: b64(text) }));
    expect(result.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(calls).toEqual([]);
  });
});
