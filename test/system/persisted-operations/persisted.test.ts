// Persisted operations with the manifest the Relay compiler writes (persistConfig), Apollo's
// automatic persisted queries through Apollo Client's own link, and safelist mode: refusals
// have their codes and cost no upstream call.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { compileWithRelay } from '../clients/relay/compile.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const AUTH = { authorization: 'Bearer phx_full' };

describe('safelist mode with the Relay compiler manifest', () => {
  let h: Harness;
  let ids: Map<string, string>;
  let manifest: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    const relay = compileWithRelay({ persist: 'MD5' });
    ids = relay.operations;
    manifest = JSON.parse(relay.manifest!);
    dir = mkdtempSync(join(tmpdir(), 'gateway-persisted-'));
    writeFileSync(join(dir, 'persisted.json'), relay.manifest!);
    h = await startHarness({
      env: { PERSISTED_OPERATIONS_FILE: join(dir, 'persisted.json'), PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the compiler wrote one manifest entry per operation, keyed by the id in its artifact', () => {
    expect(ids.size).toBe(14);
    for (const id of ids.values()) expect(manifest[id]).toMatch(/^(query|mutation) /);
  });

  it('runs an operation by documentId, in the body and in a GET query string', async () => {
    h.reset();
    const post = await h.post(
      JSON.stringify({ documentId: ids.get('ClientScreenQuery'), variables: { projectId: '1' } }),
      AUTH,
    );
    expect(post.body.errors).toBeUndefined();
    expect(post.body.data.project.destinationConfigs.edges).toHaveLength(50);

    const url = new URL(h.url);
    url.searchParams.set('documentId', ids.get('ClientScreenDetailQuery')!);
    url.searchParams.set(
      'variables',
      JSON.stringify({ id: post.body.data.project.destinationConfigs.edges[0].node.id }),
    );
    const get = await fetch(url, { headers: { ...AUTH, accept: 'application/json' } });
    const body = await get.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.node.name).toEqual(expect.any(String));
  });

  it('runs a mutation by documentId, and a manifest document sent by its SHA-256 (APQ) or as its exact text', async () => {
    const id = (await h.gql('{ project(projectId: "1") { destinationConfig(databaseId: 1) { id } } }')).body;
    // That query is not in the manifest: refused (below). Take the id from a persisted query instead.
    expect(id.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const screen = await h.post(
      JSON.stringify({ documentId: ids.get('ClientScreenQuery'), variables: { projectId: '1' } }),
      AUTH,
    );
    const configId = screen.body.data.project.destinationConfigs.edges[0].node.id;
    const mutation = await h.post(
      JSON.stringify({
        documentId: ids.get('ClientScreenUpdateMutation'),
        variables: { input: { id: configId, enabled: false } },
      }),
      AUTH,
    );
    expect(mutation.body.data.updateDestinationConfig.destinationConfig).toMatchObject({
      id: configId,
      enabled: false,
    });

    const text = manifest[ids.get('ClientScreenConfigRefetchQuery')!];
    const apq = await h.post(
      JSON.stringify({
        variables: { id: configId },
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256(text) } },
      }),
      AUTH,
    );
    expect(apq.body.data.node.id).toBe(configId);
    const exact = await h.post(JSON.stringify({ query: text, variables: { id: configId } }), AUTH);
    expect(exact.body.data.node.id).toBe(configId);
  });

  it('refuses any other text with PERSISTED_QUERY_ONLY and an unknown id with PERSISTED_QUERY_NOT_FOUND, with no upstream call', async () => {
    h.reset();
    const other = await h.gql('{ project(projectId: "1") { name } }');
    expect(other.body.data ?? null).toBeNull();
    expect(other.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_ONLY' } }),
    ]);
    const unknown = await h.post(JSON.stringify({ documentId: 'f'.repeat(32) }), AUTH);
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const unknownApq = await h.post(
      JSON.stringify({
        query: '{ project(projectId: "1") { name } }',
        extensions: {
          persistedQuery: { version: 1, sha256Hash: sha256('{ project(projectId: "1") { name } }') },
        },
      }),
      AUTH,
    );
    // Safelist mode remembers nothing: a registration is refused like any unknown id.
    expect(unknownApq.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});

describe('automatic persisted queries through Apollo Client (no safelist)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('the first request registers the text after PERSISTED_QUERY_NOT_FOUND, the next sends only the hash', async () => {
    const bodies: Record<string, unknown>[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: false }).concat(
      new HttpLink({ uri: h.url, headers: AUTH, fetch: recordingFetch }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const query = gql`query ProjectName { project(projectId: "1") { id name } }`;
    const first = await client.query({ query, fetchPolicy: 'network-only' });
    expect(first.data).toMatchObject({ project: { name: expect.any(String) } });
    expect(bodies).toHaveLength(2);
    expect(bodies[0].query).toBeUndefined();
    expect(bodies[1].query).toEqual(expect.any(String));

    const second = await client.query({ query, fetchPolicy: 'network-only' });
    expect(second.data).toEqual(first.data);
    expect(bodies).toHaveLength(3);
    expect(bodies[2].query).toBeUndefined();
  });

  it('a hash that is not the SHA-256 of the text sent is bad input', async () => {
    const { body } = await h.post(
      JSON.stringify({
        query: '{ project(projectId: "1") { name } }',
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256('something else') } },
      }),
      AUTH,
    );
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('PERSISTED_OPERATIONS_FILE at start-up', () => {
  it('a manifest that does not parse, or safelist mode without one, stops start-up naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-persisted-'));
    try {
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ abc: 'query {' }));
      expect(() => loadConfig({ PERSISTED_OPERATIONS_FILE: join(dir, 'bad.json') })).toThrow(
        /PERSISTED_OPERATIONS_FILE: operation "abc" does not parse/,
      );
      expect(() => loadConfig({ PERSISTED_OPERATIONS_ONLY: 'true' })).toThrow(
        /needs PERSISTED_OPERATIONS_FILE/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
