// `anyKeyPrefix` (`--any-key-prefix`): any key of the prefix authenticates with every scope, and the
// emulator keeps nothing per such key; without the option, or with another prefix, it is 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DIALECTS } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const CONFIGS = '/api/projects/1/pipeline_destination_configs/';

describe.each(ALL_DIALECTS)('any key of a prefix, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  let without: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect, anyKeyPrefix: 'phx_bench_' });
    without = await startReferenceUpstream({ dialect });
  });
  afterAll(async () => {
    await upstream.close();
    await without.close();
  });

  it('lets in any key of the prefix, as the seeded full key reads', async () => {
    const full = await rest(upstream, 'GET', CONFIGS);
    for (const key of ['phx_bench_1', 'phx_bench_9999', 'phx_bench_client-7']) {
      const answer = await rest(upstream, 'GET', CONFIGS, { key });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(full.body);
    }
  });

  it('refuses a key of another prefix, the bare prefix, and any key of it without the option', async () => {
    for (const key of ['phx_other_1', 'phx_bench_', 'phx_bench_a b', `phx_bench_${'x'.repeat(65)}`]) {
      expect((await rest(upstream, 'GET', CONFIGS, { key })).status).toBe(401);
    }
    expect((await rest(without, 'GET', CONFIGS, { key: 'phx_bench_1' })).status).toBe(401);
  });

  it('stores nothing per key: 500 distinct keys later it holds the seeded keys only', async () => {
    const seeded = upstream.store.keys.size;
    for (let i = 0; i < 500; i++) {
      expect((await rest(upstream, 'GET', CONFIGS, { key: `phx_bench_m${i}` })).status).toBe(200);
    }
    expect(upstream.store.keys.size).toBe(seeded);
    expect([...upstream.store.keys.keys()].some((k) => k.startsWith('phx_bench_'))).toBe(false);
  });
});

describe('any key of a prefix reads itself as a `*` key (posthog-2026)', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026', anyKeyPrefix: 'phx_bench_' });
  });
  afterAll(() => upstream.close());

  it('answers @current with every scope and no team or organization limit', async () => {
    const { status, body } = await rest(upstream, 'GET', '/api/personal_api_keys/@current/', {
      key: 'phx_bench_42',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ user_id: 1, scopes: ['*'], scoped_teams: [], scoped_organizations: [] });
  });
});
