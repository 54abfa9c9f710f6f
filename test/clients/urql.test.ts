// urql with its defaults: queries go as GET (preferGetMethod 'within-url-limit'), mutations as
// POST. Both work, with no extra header.
import { cacheExchange, createClient, fetchExchange, gql } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';

describe('urql with its defaults', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('runs queries over GET and mutations over POST', async () => {
    const methods: string[] = [];
    // Real fetch; only the method of each request is noted, to show what urql chose.
    const observedFetch: typeof fetch = (input, init) => {
      methods.push(init?.method ?? 'GET');
      return fetch(input, init);
    };
    const client = createClient({
      url: h.url,
      exchanges: [cacheExchange, fetchExchange],
      fetch: observedFetch,
      fetchOptions: { headers: { authorization: 'Bearer phx_full' } },
    });
    const query = await client
      .query(
        gql`query Names { project(projectId: "1") { name destinationConfigs(first: 3) { edges { node { id name } } } } }`,
        {},
      )
      .toPromise();
    expect(query.error).toBeUndefined();
    expect(query.data.project.name).toBe('Hedgebox (production)');
    expect(query.data.project.destinationConfigs.edges).toHaveLength(3);

    const mutation = await client
      .mutation(
        gql`mutation Rename($input: UpdateDestinationConfigInput!) { updateDestinationConfig(input: $input) { destinationConfig { id name } } }`,
        { input: { id: configId('1', 2), name: 'Renamed by urql' } },
      )
      .toPromise();
    expect(mutation.error).toBeUndefined();
    expect(mutation.data.updateDestinationConfig.destinationConfig.name).toBe('Renamed by urql');
    expect(methods).toEqual(['GET', 'POST']);
  });
});
