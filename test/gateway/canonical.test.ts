// Ids and counts (issue 41, item 6): a project id has one spelling ("001" is "1" in global ids,
// cursors, paths and wake-ups), a cursor has one spelling (no trailing fields, no `1e3`), and a
// count the upstream gets wrong (negative, absurd, short of what a page shows) fails the field
// with a code instead of reaching totalCount.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const cursorOf = (fields: unknown[]) => Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');

describe('one spelling per project id and per cursor', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('reads "001" as project 1: the same global ids, the same paths', async () => {
    const q = (p: string) =>
      `{ project(projectId: "${p}") { id destinationConfigs(first: 2) { edges { cursor node { id } } } hogFunctions(first: 1) { edges { node { id } } } } }`;
    const one = await h.gql(q('1'));
    const padded = await h.gql(q('001'));
    expect(padded.body.errors).toBeUndefined();
    expect(padded.body.data).toEqual(one.body.data);
    expect(new Set(h.upstreamCalls().map((c) => c.path.split('/')[3]))).toEqual(new Set(['1']));
  });

  it('refuses a global id spelt with a padded project id', async () => {
    const id = Buffer.from('DestinationConfig:001:1').toString('base64');
    const { body } = await h.gql('query($id: ID!) { node(id: $id) { id } }', { id });
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('refuses a cursor with a trailing field or a number spelt 1e3', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { destinations(first: 2, kinds: [PLUGIN_CONFIG]) { edges { cursor } } } }',
    );
    const good = body.data.project.destinations.edges[1].cursor;
    const fields = JSON.parse(Buffer.from(good, 'base64url').toString('utf8'));
    const q =
      '{ project(projectId: "1") { destinations(first: 2, after: $after, kinds: [PLUGIN_CONFIG]) { edges { cursor } } } }';
    for (const bad of [
      cursorOf([...fields, 'extra']),
      Buffer.from(JSON.stringify(fields).replace(/,1\]$/, ',1e0]'), 'utf8').toString('base64url'),
      Buffer.from(JSON.stringify(fields).replace(',', ', '), 'utf8').toString('base64url'),
    ]) {
      h.upstream.clearRequests();
      const answer = await h.gql(`query($after: String) ${q.replace('$after', '$after')}`, { after: bad });
      expect(answer.body.errors?.[0]?.extensions.code, bad).toBe('BAD_USER_INPUT');
      expect(h.upstreamCalls()).toEqual([]);
    }
    const ok = await h.gql(`query($after: String) ${q}`, { after: good });
    expect(ok.body.errors).toBeUndefined();
  });
});

describe('counts the upstream gets wrong', () => {
  for (const count of [-5, 1_000_000_000, 1]) {
    it(`fails the connection with UPSTREAM_ERROR for a count of ${count}, and the rest answers`, async () => {
      const h = await startHarness({ dialect: 'posthog-2026' });
      try {
        const path = '/api/projects/1/pipeline_destination_configs/';
        const real = await fetch(`${h.upstream.url}${path}?limit=5&offset=0`, {
          headers: { authorization: 'Bearer phx_full' },
        });
        const page = (await real.json()) as { results: unknown[] };
        h.upstream.faults.add({
          path,
          method: 'GET',
          action: {
            kind: 'status',
            status: 200,
            body: { count, next: null, previous: null, results: page.results },
          },
        });
        const { body } = await h.gql(
          '{ project(projectId: "1") { name destinationConfigs(first: 5) { totalCount edges { node { name } } } } }',
        );
        expect(body.data.project.name).toBeTruthy();
        expect(body.data.project.destinationConfigs).toBeNull();
        expect(body.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
        expect(body.errors[0].message).toMatch(/count/);
      } finally {
        await h.close();
      }
    });
  }
});
