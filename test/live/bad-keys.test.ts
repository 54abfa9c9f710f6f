// Live work does not outlive a bad key, on SSE and graphql-ws alike: a @live query under a key the
// upstream refuses ends with UNAUTHENTICATED (as activityAdded does) and gives its slot back;
// slots are counted per key however its header is spelled; a caller without a key holds none.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const LIVE = 'query @live { nodes(ids: ["RGVzdGluYXRpb25Db25maWc6MTox", "UHJvamVjdDox"]) { id } }';
const ACTIVITY = 'subscription { activityAdded(projectId: "1") { id } }';

describe.each<Transport>(['sse', 'ws'])('bad keys and live work over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        LIVE_QUERY_POLL_MS: '100',
        ACTIVITY_POLL_MS: '60000',
        MAX_SUBSCRIPTIONS: '3',
        MAX_SUBSCRIPTIONS_PER_KEY: '1',
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('a @live query under an invented key ends with UNAUTHENTICATED, and asks the upstream no more', async () => {
    const s = subscribe(h, transport, 'phx_invented_1', LIVE);
    const first = await s.next();
    expect(first.value.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await s.next()).done).toBe(true);
    // One call: the check that live work of a key not accepted yet makes before it starts.
    const calls = h.upstreamCalls().length;
    expect(calls).toBe(1);
    await settle(400);
    expect(h.upstreamCalls()).toHaveLength(calls);
    s.dispose();
  });

  it('ended live queries give their slots back: a real key subscribes after ten invented ones', async () => {
    for (let i = 0; i < 10; i++) {
      const s = subscribe(h, transport, `phx_invented_${i}`, LIVE);
      expect((await s.next()).value.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      s.dispose();
    }
    await until(() => h.live.slots.open === 0, 'h.live.slots.open === 0');
    expect(h.live.slots.open).toBe(0);
    const real = subscribe(h, transport, 'phx_full', LIVE);
    const answer = await real.next();
    expect(answer.value.errors).toBeUndefined();
    expect(answer.value.data.nodes).toHaveLength(2);
    await real.return();
    real.dispose();
  });

  it('a key spelled otherwise wins no second slot', async () => {
    const held = subscribe(h, transport, 'phx_read', ACTIVITY);
    const pending = held.next();
    await until(() => h.live.slots.open > 0, 'h.live.slots.open > 0');
    for (const spelling of [' phx_read', '\tphx_read', 'phx_read ']) {
      const again = subscribe(h, transport, spelling, ACTIVITY);
      const refused = await again.next();
      expect(refused.value.errors[0].extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'subscriptions',
      });
      again.dispose();
    }
    await held.return();
    held.dispose();
    void pending;
  });

  it('a caller without a key holds no slot', async () => {
    for (let i = 0; i < 5; i++) {
      const s = subscribe(h, transport, null, LIVE);
      // Over WebSocket the socket itself is refused at connection_init.
      const outcome = await s.next().then(
        (step) => step.value.errors[0].extensions.code,
        (event: { code: number }) => `closed ${event.code}`,
      );
      expect(outcome).toBe(transport === 'sse' ? 'UNAUTHENTICATED' : 'closed 4401');
      s.dispose();
    }
    expect(h.live.slots.open).toBe(0);
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});
