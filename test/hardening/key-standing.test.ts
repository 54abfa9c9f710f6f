// What PostHog said of a key is remembered (upstream/keys/standing.ts), so that a key it refuses
// cannot amplify: after its 401, the other calls of the same request fail at once, unsent, and
// later requests with the key are refused before any call while the refusal is remembered. A real
// key's calls go on as before, and a 2xx clears a refusal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/core/caller-key.ts';
import { type Harness, projectGlobalId, startHarness } from '../support/harness.ts';

/** 48 projects by global id: one upstream read each. */
const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
const IDS = Array.from({ length: 48 }, (_, i) => projectGlobalId(String(i + 1)));
const ONE_PROJECT = '{ project(projectId: "1") { name } }';

const codes = (body: { errors?: { extensions: { code: string } }[] }) => [
  ...new Set((body.errors ?? []).map((e) => e.extensions.code)),
];

describe('a key PostHog refuses', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('makes one upstream call for a request of 48 reads, and none for the next request', async () => {
    const first = await h.gql(NODES, { ids: IDS }, 'phx_made_up_48');
    expect(first.body.data.nodes).toEqual(IDS.map(() => null));
    expect(first.body.errors).toHaveLength(48);
    expect(codes(first.body)).toEqual(['UNAUTHENTICATED']);
    expect(h.upstreamCalls()).toHaveLength(1);

    const second = await h.gql(NODES, { ids: IDS }, 'phx_made_up_48');
    expect(codes(second.body)).toEqual(['UNAUTHENTICATED']);
    expect(second.body.errors[0].message).toMatch(/refused by PostHog moments ago.*[Cc]heck the key/);
    expect(h.upstreamCalls()).toHaveLength(1);
    // Nothing of the key in what the caller is told.
    expect(JSON.stringify(second.body)).not.toContain('phx_made_up_48');
  });

  it('leaves a real key’s calls alone, beside a refused one', async () => {
    await h.gql(ONE_PROJECT, {}, 'phx_made_up_real');
    const real = await h.gql(NODES, { ids: IDS.slice(0, 3) }, 'phx_full');
    expect(real.body.errors).toBeUndefined();
    expect(real.body.data.nodes.map((n: { id: string } | null) => n?.id ?? null)).toEqual([
      IDS[0],
      IDS[1],
      null,
    ]);
    expect(h.upstreamCalls().filter((c) => c.authorization === 'Bearer phx_full')).toHaveLength(3);
    expect(h.live.keyStanding.isAccepted(hashKey('Bearer phx_full'))).toBe(true);
    expect(h.live.keyStanding.isRefused(hashKey('Bearer phx_made_up_real'))).toBe(true);
  });

  it('a 2xx clears a refusal', async () => {
    const key = hashKey('Bearer phx_legacy');
    h.live.keyStanding.noteRefused(key);
    const refused = await h.gql(ONE_PROJECT, {}, 'phx_legacy');
    expect(codes(refused.body)).toEqual(['UNAUTHENTICATED']);
    expect(h.upstreamCalls()).toHaveLength(0);
    h.live.keyStanding.noteAccepted(key);
    expect(h.live.keyStanding.isRefused(key)).toBe(false);
    const served = await h.gql(ONE_PROJECT, {}, 'phx_legacy');
    expect(served.body.errors).toBeUndefined();
    expect(h.upstreamCalls()).toHaveLength(1);
  });
});
