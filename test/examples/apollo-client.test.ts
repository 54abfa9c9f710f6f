// examples/apollo-client.ts against a gateway in front of today's PostHog: its possibleTypes are
// the schema's, allDestinations pages every destination of all three kinds into one cached list,
// and a subscription over its graphql-ws link shows a write made meanwhile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, isInterfaceType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_ADDED,
  allDestinations,
  createApolloClient,
  POSSIBLE_TYPES,
} from '../../examples/apollo-client.ts';
import { ROOT } from '../docs/markdown-blocks.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { writeUntil } from './activity-writes.ts';

describe('examples/apollo-client.ts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: { ACTIVITY_POLL_MS: '200' } });
  });
  afterAll(() => h.close());

  it('knows every interface of the schema and the types that implement it', () => {
    const schema = buildSchema(readFileSync(join(ROOT, 'schema.graphql'), 'utf8'));
    const interfaces = Object.values(schema.getTypeMap()).filter(isInterfaceType);
    const expected = Object.fromEntries(
      interfaces.map((type) => [
        type.name,
        schema
          .getPossibleTypes(type)
          .map((t) => t.name)
          .sort(),
      ]),
    );
    const given = Object.fromEntries(
      Object.entries(POSSIBLE_TYPES).map(([name, types]) => [name, [...types].sort()]),
    );
    expect(given).toEqual(expected);
  });

  it('pages every destination into one cached list', async () => {
    const client = createApolloClient(h.url, 'phx_full');
    const destinations = await allDestinations(client, '1');
    expect(destinations.totalCount).toBeGreaterThan(20);
    expect(destinations.edges).toHaveLength(destinations.totalCount);
    const ids = destinations.edges.map((edge) => edge.node.id);
    expect(new Set(ids).size).toBe(ids.length);
    const kinds = new Set(destinations.edges.map((edge) => edge.node.__typename));
    expect([...kinds].sort()).toEqual(POSSIBLE_TYPES.Destination);
    client.stop();
  });

  it('subscribes over graphql-ws and sees a write made meanwhile', { timeout: 30_000 }, async () => {
    const client = createApolloClient(h.url, 'phx_full');
    let subscription: { unsubscribe(): void } | undefined;
    // biome-ignore lint/suspicious/noExplicitAny: the event is read by path.
    const event = new Promise<any>((resolve, reject) => {
      subscription = client.subscribe({ query: ACTIVITY_ADDED, variables: { projectId: '1' } }).subscribe({
        next: ({ data, error }) => (error ? reject(error) : resolve(data)),
        error: reject,
      });
    });
    try {
      await writeUntil(h, event);
      expect((await event).activityAdded).toMatchObject({ activity: 'updated', scope: 'HogFunction' });
    } finally {
      subscription?.unsubscribe();
      client.stop();
    }
  });
});
