// What must hold whichever executor runs a document (EXECUTOR=compiled, graphql-jit; or
// graphql-js) and whichever dialect answers: omitted variables stay omitted, and cursors under
// `@current` are strings for every key that may read the list.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, DIALECTS, type Harness, startHarness } from '../support/harness.ts';
import { settle } from '../support/wait.ts';

const EXECUTORS = ['compiled', 'graphql-js'] as const;

describe.each(
  EXECUTORS.flatMap((executor) => DIALECTS.map((dialect) => [executor, dialect] as const)),
)('executor %s, %s dialect', (executor, dialect) => {
  let h: Harness;
  /** Rejections no one handled while this file ran (the @current cursor's promise made 6,126 in a soak). */
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    h = await startHarness({ dialect, env: { EXECUTOR: executor } });
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h.close();
  });
  beforeEach(() => h.reset());

  const writes = () => h.upstreamCalls().filter((c) => c.method !== 'GET');

  it('an update sends only the fields whose variables were given', async () => {
    const { body } = await h.gql(
      `mutation($id: ID!, $n: String, $d: String, $e: Boolean) {
          updateDestinationConfig(input: {id: $id, name: $n, description: $d, enabled: $e}) {
            destinationConfig { name enabled } } }`,
      { id: configId('1', 2), e: false },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.updateDestinationConfig.destinationConfig.enabled).toBe(false);
    expect(body.data.updateDestinationConfig.destinationConfig.name).not.toBeNull();
    expect(writes()).toHaveLength(1);
    const sent = writes()[0]!.body!;
    expect(sent).toEqual({ enabled: false });
  });

  it('a variable inside a JSON literal is sent as given', async () => {
    const { body } = await h.gql(
      `mutation($id: ID!, $event: String) {
        updateDestinationConfig(input: {id: $id, filters: {events: [$event]}}) { destinationConfig { filters } } }`,
      { id: configId('1', 2), event: '$pageview' },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.updateDestinationConfig.destinationConfig.filters).toEqual({ events: ['$pageview'] });
    expect(writes()[0]!.body).toEqual({ filters: { events: ['$pageview'] } });
  });

  it('a variable given as null is sent as null', async () => {
    const { body } = await h.gql(
      `mutation($id: ID!, $d: String) {
          updateDestinationConfig(input: {id: $id, description: $d}) { destinationConfig { description } } }`,
      { id: configId('1', 3), d: null },
    );
    expect(body.errors).toBeUndefined();
    expect(writes()).toHaveLength(1);
    expect(writes()[0]!.body).toEqual({ description: null });
  });

  it('a create sends only the fields whose variables were given', async () => {
    const { body } = await h.gql(
      `mutation($p: String!, $plugin: Int!, $o: Int!, $n: String, $d: String, $e: Boolean) {
          createDestinationConfig(input: {projectId: $p, plugin: $plugin, order: $o, name: $n, description: $d, enabled: $e}) {
            destinationConfig { databaseId } } }`,
      { p: '1', plugin: 1, o: 4, n: 'Made' },
    );
    expect(body.errors).toBeUndefined();
    expect(writes()).toHaveLength(1);
    const sent = writes()[0]!.body!;
    expect(Object.keys(sent).sort()).toEqual(['name', 'order', 'plugin']);
  });

  it.each(['phx_full', 'phx_read'])('cursors and ids under @current are strings (key %s)', async (key) => {
    unhandled.length = 0;
    const { body } = await h.gql(
      `{ project(projectId: "@current") {
            activityLog(first: 3) { edges { cursor node { id } } pageInfo { startCursor endCursor } }
            destinationConfigs(first: 2) { edges { cursor node { id } } pageInfo { endCursor } } } }`,
      {},
      key,
    );
    expect(body.errors).toBeUndefined();
    const log = body.data.project.activityLog;
    expect(log.edges).toHaveLength(3);
    for (const edge of log.edges) expect(typeof edge.cursor).toBe('string');
    expect(log.pageInfo.endCursor).toBe(log.edges[2].cursor);
    const configs = body.data.project.destinationConfigs;
    for (const edge of configs.edges) expect(typeof edge.cursor).toBe('string');

    // The cursor pages on: the next page starts after the third entry.
    const next = await h.gql(
      `query($after: String) { project(projectId: "@current") { activityLog(first: 2, after: $after) { edges { node { id } } } } }`,
      { after: log.pageInfo.endCursor },
      key,
    );
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data.project.activityLog.edges).toHaveLength(2);
    expect(next.body.data.project.activityLog.edges[0].node.id).not.toBe(log.edges[2].node.id);
    expect(unhandled).toEqual([]);
  });

  it.each([
    [['bad-first', 1], [null, 'DestinationConfig'], [0]],
    [[1, 'bad-last'], ['DestinationConfig', null], [1]],
    [[999, 'bad', 2], [null, null, 'DestinationConfig'], [1]],
  ])('nodes keeps every item at its index (%j)', async (ids, types, failed) => {
    const { body } = await h.gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', {
      ids: ids.map((id) => (typeof id === 'number' ? configId('1', id) : id)),
    });
    expect(body.data.nodes.map((n: { __typename: string } | null) => n?.__typename ?? null)).toEqual(types);
    expect(body.errors.map((e: { path: unknown[] }) => e.path[1])).toEqual(failed);
  });

  it('no upstream call starts after the answer is sent', async () => {
    const { body } = await h.gql(
      `{ project(projectId: "@current") { activityLog(first: 3) { edges { cursor } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const count = h.upstreamCalls().length;
    await settle(100);
    expect(h.upstreamCalls()).toHaveLength(count);
  });
});
