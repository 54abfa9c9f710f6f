// 2,000 distinct keys PostHog accepts (the reference upstream's `anyKeyPrefix`), each one request:
// every per-key table of the process holds each key once and stays within its documented bound
// (the budget's MAX_KEYS, the accepted standing's MAX_REMEMBERED, kept answers'
// UPSTREAM_CACHE_MAX_BYTES, here far below what 2,000 keys' answers weigh), each key's own
// grant (GET @current) is read once and still kept for the first key after the 2,000th, and no
// subscription slot is held. What 10,000 keys weigh in the heap is the bench's (npm run bench,
// docs/performance.md); keys nobody issued are test/system/shared-state/invented-keys.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import type { KeyBudget } from '../../src/upstream/keys/budget.ts';
import { MAX_KEYS } from '../../src/upstream/keys/key-states.ts';
import { MAX_REMEMBERED } from '../../src/upstream/keys/standing.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { inBatches } from '../support/in-batches.ts';

const KEYS = 2_000;
const CACHE_MAX_BYTES = 64 * 1024;
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 7) { name } } }';
const CURRENT = '/api/personal_api_keys/@current/';

/** The running gateway's per-key tables: none is part of its public surface. */
interface Tables {
  budget: KeyBudget;
  accepted: { size: number };
  kept: { size: number; heldBytes: number };
}

function tablesOf(h: Harness): Tables {
  const { client } = (h.live.activity as unknown as { options: { client: UpstreamClient } }).options;
  const inside = client as unknown as {
    options: { budget: KeyBudget };
    keyStanding: { accepted: { size: number } };
    answers: { shelf: { kept: { size: number; heldBytes: number } } };
  };
  return {
    budget: inside.options.budget,
    accepted: inside.keyStanding.accepted,
    kept: inside.answers.shelf.kept,
  };
}

describe(`${KEYS.toLocaleString('en')} distinct valid keys`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog-2026',
      upstream: { anyKeyPrefix: 'phx_many_' },
      env: {
        KEY_SCOPES_REFRESH_MS: '300000',
        // A budget far above the load: counted, never refusing.
        UPSTREAM_BUDGET_PER_MINUTE: '1000000',
        UPSTREAM_BUDGET_PER_HOUR: '10000000',
        UPSTREAM_CACHE_TTL_MS: '300000',
        UPSTREAM_CACHE_MAX_BYTES: String(CACHE_MAX_BYTES),
      },
    });
  });
  afterAll(() => h.close());

  it('holds each key once in every per-key table, within its bound', async () => {
    await inBatches(KEYS, 50, async (i) => {
      const { body } = await h.gql(ONE_CONFIG, {}, `phx_many_${i}`);
      expect(body.errors).toBeUndefined();
      expect(body.data.project.destinationConfig.name).toEqual(expect.any(String));
    });
    // One read of its own grant and one of the config per key.
    expect(h.upstreamCalls({ path: CURRENT })).toHaveLength(KEYS);
    expect(h.upstreamCalls()).toHaveLength(2 * KEYS);
    expect(new Set(h.upstreamCalls().map((c) => c.authorization)).size).toBe(KEYS);

    const { budget, accepted, kept } = tablesOf(h);
    expect(budget.size).toBe(KEYS);
    expect(budget.size).toBeLessThanOrEqual(MAX_KEYS);
    expect(accepted.size).toBe(KEYS);
    expect(accepted.size).toBeLessThanOrEqual(MAX_REMEMBERED);
    // Kept answers keep to their bytes: the most recent keys' answers, not 2,000 of them.
    expect(kept.heldBytes).toBeLessThanOrEqual(CACHE_MAX_BYTES);
    expect(kept.size).toBeGreaterThan(0);
    expect(kept.size).toBeLessThan(KEYS);
    expect(h.live.slots.open).toBe(0);
  }, 120_000);

  it('still knows the first key’s grant after the last key: no second read of it', async () => {
    h.upstream.clearRequests();
    const { body } = await h.gql(ONE_CONFIG, {}, 'phx_many_0');
    expect(body.errors).toBeUndefined();
    expect(h.upstreamCalls({ path: CURRENT })).toEqual([]);
    // Its config answer was pushed out of the bounded kept answers: read again.
    expect(h.upstreamCalls()).toHaveLength(1);
  });
});
