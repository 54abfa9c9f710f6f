// Fuzzing with fast-check: random variables for every operation, and random malformed HTTP
// bodies. Never a 500 from the gateway's own code, never an unmasked or uncoded error, never a
// crash (the gateway answers normally afterwards).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors/codes.ts';
import { configId, type Harness, startHarness } from '../support/harness.ts';

const RUNS = 25;
const KNOWN = new Set<string>(ERROR_CODES.filter((c) => c !== 'INTERNAL_SERVER_ERROR'));

const projectId = fc.oneof(
  fc.constantFrom('1', '2', '3', '@current', '999', '1/../2', ''),
  fc.string({ maxLength: 30 }),
);
const globalId = fc.oneof(
  fc.constantFrom(configId('1', 1), configId('1', 2), configId('3', 162), 'UHJvamVjdDox'),
  fc.integer().map((n) => configId('1', n)),
  fc.string({ maxLength: 60 }),
  fc.base64String({ maxLength: 60 }),
);
const count = fc.oneof(fc.integer({ min: -5, max: 120 }), fc.constant(null), fc.integer());
const cursor = fc.oneof(fc.constant(null), fc.string({ maxLength: 80 }), fc.base64String({ maxLength: 80 }));
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Mostly the right shape, sometimes anything at all. */
const loosely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.anything() });

const OPERATIONS: { name: string; query: string; variables: fc.Arbitrary<Record<string, unknown>> }[] = [
  {
    name: 'destinationConfigs',
    query: `query($p: String!, $first: Int, $after: String, $last: Int, $before: String) {
      project(projectId: $p) { name destinationConfigs(first: $first, after: $after, last: $last, before: $before) {
        totalCount edges { cursor node { id databaseId pluginInfo deliveryRate24h } } pageInfo { hasNextPage endCursor } } } }`,
    variables: fc.record({
      p: loosely(projectId),
      first: loosely(count),
      after: loosely(cursor),
      last: loosely(count),
      before: loosely(cursor),
    }),
  },
  {
    name: 'activityLog',
    query: `query($p: String!, $first: Int, $after: String, $scope: String, $itemId: String, $userId: Int) {
      project(projectId: $p) { activityLog(first: $first, after: $after, scope: $scope, itemId: $itemId, userId: $userId) {
        edges { cursor node { id scope destinationConfig { name } } } pageInfo { hasNextPage } } } }`,
    variables: fc.record({
      p: loosely(projectId),
      first: loosely(count),
      after: loosely(cursor),
      scope: loosely(fc.oneof(fc.constantFrom('PluginConfig', 'FeatureFlag'), fc.string({ maxLength: 20 }))),
      itemId: loosely(fc.oneof(fc.constant(null), fc.string({ maxLength: 20 }))),
      userId: loosely(fc.oneof(fc.constant(null), fc.integer())),
    }),
  },
  {
    name: 'destinationConfig',
    query: `query($p: String!, $d: Int!) { project(projectId: $p) { destinationConfig(databaseId: $d) {
      frontend { contentType source } activity(first: 3) { edges { cursor } } } } }`,
    variables: fc.record({ p: loosely(projectId), d: loosely(fc.integer()) }),
  },
  {
    name: 'node and nodes',
    query:
      'query($id: ID!, $ids: [ID!]!) { node(id: $id) { id } nodes(ids: $ids) { id ... on DestinationConfig { name } } }',
    variables: fc.record({ id: loosely(globalId), ids: loosely(fc.array(globalId, { maxLength: 8 })) }),
  },
  {
    name: 'projects and importantChanges',
    query:
      'query($first: Int, $after: String, $p: String!, $u: Boolean) { projects(first: $first, after: $after) { totalCount } project(projectId: $p) { importantChanges(unreadOnly: $u) { lastRead } } }',
    variables: fc.record({
      first: loosely(count),
      after: loosely(cursor),
      p: loosely(projectId),
      u: loosely(fc.boolean()),
    }),
  },
  {
    name: 'createDestinationConfig',
    query:
      'mutation($input: CreateDestinationConfigInput!) { createDestinationConfig(input: $input) { destinationConfig { id config } } }',
    variables: fc.record({
      input: loosely(
        fc.record(
          {
            projectId,
            plugin: fc.integer({ min: -2, max: 8 }),
            order: fc.integer(),
            name: fc.oneof(fc.constant(null), fc.string()),
            config: anyJson,
            filters: anyJson,
            enabled: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      ),
    }),
  },
  {
    name: 'updateDestinationConfig',
    query:
      'mutation($input: UpdateDestinationConfigInput!) { updateDestinationConfig(input: $input) { destinationConfig { id } } }',
    variables: fc.record({
      input: loosely(
        fc.record(
          {
            id: globalId,
            enabled: fc.oneof(fc.boolean(), fc.constant(null)),
            order: count,
            config: anyJson,
            filters: anyJson,
            description: fc.string({ maxLength: 1_100 }),
          },
          { requiredKeys: [] },
        ),
      ),
    }),
  },
  {
    name: 'deleteDestinationConfig and runDestinationConfigJob',
    query: `mutation($d: DeleteDestinationConfigInput!, $j: RunDestinationConfigJobInput!) {
      runDestinationConfigJob(input: $j) { destinationConfig { id } } deleteDestinationConfig(input: $d) { deletedId } }`,
    variables: fc.record({
      d: loosely(fc.record({ id: globalId })),
      j: loosely(
        fc.record({
          id: globalId,
          job: fc.record({
            type: fc.oneof(fc.constant('Export historical events'), fc.string()),
            payload: anyJson,
          }),
        }),
      ),
    }),
  },
  {
    name: 'rearrange and bookmark',
    query: `mutation($r: RearrangeDestinationConfigsInput!, $b: BookmarkActivityNotificationInput!) {
      rearrangeDestinationConfigs(input: $r) { destinationConfigs { id } } bookmarkActivityNotification(input: $b) { bookmark } }`,
    variables: fc.record({
      r: loosely(
        fc.record({
          projectId,
          orders: fc.array(fc.record({ id: globalId, order: fc.integer() }), { maxLength: 5 }),
        }),
      ),
      b: loosely(
        fc.record(
          {
            projectId,
            bookmark: fc.oneof(
              fc.constant(null),
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              fc.string(),
            ),
          },
          { requiredKeys: ['projectId'] },
        ),
      ),
    }),
  },
];

function expectWellFormed(status: number, body: unknown, context: string) {
  expect(status, context).toBeLessThan(500);
  expect(typeof body, context).toBe('object');
  const errors = (body as { errors?: { message: string; extensions?: { code?: string } }[] }).errors ?? [];
  for (const error of errors) {
    expect(KNOWN.has(String(error.extensions?.code)), `${context}: ${JSON.stringify(error)}`).toBe(true);
  }
}

describe('fuzz', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog', env: { UPSTREAM_HEADERS_TIMEOUT_MS: '2000' } });
  });
  afterAll(() => h.close());

  it.each(OPERATIONS)('random variables for $name', async ({ query, variables }) => {
    await fc.assert(
      fc.asyncProperty(
        variables,
        fc.constantFrom('phx_full', 'phx_legacy', 'phx_read', null),
        async (vars, key) => {
          const { status, body } = await h.gql(query, vars, key);
          expectWellFormed(status, body, JSON.stringify(vars).slice(0, 300));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('random malformed HTTP bodies', async () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({ query: fc.anything(), variables: fc.anything(), operationName: fc.anything() })
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }).map((q) => JSON.stringify({ query: q })),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    const contentTypes = fc.constantFrom(
      'application/json',
      'application/graphql',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    );
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, async (body, contentType) => {
        const answer = await h.post(body, { authorization: 'Bearer phx_full', 'content-type': contentType });
        expectWellFormed(answer.status, answer.body, `${contentType} ${body.slice(0, 100)}`);
      }),
      { numRuns: 150 },
    );
    const { body } = await h.gql('{ project(projectId: "1") { name } }');
    expect(body).toEqual({ data: { project: { name: 'Hedgebox (production)' } } });
  });
});
