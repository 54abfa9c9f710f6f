// A subscription the key's known scopes cannot serve ends at once with FORBIDDEN naming the scope,
// and no poller calls PostHog: activityAdded without activity_log:read, destinationHealthChanged
// when the key may read none of the asked kinds. A kind it may not read among others is left out
// unasked. Over SSE and graphql-ws; calls counted in the emulator's log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const ACTIVITY = 'subscription { activityAdded(projectId: "1") { id } }';
const HEALTH = `subscription($kinds: [DestinationKind!]) {
  destinationHealthChanged(projectId: "1", kinds: $kinds) { id }
}`;

describe.each<Transport>(['sse', 'ws'])('scopes of subscriptions over %s', (transport) => {
  let h: Harness;
  const calls = (part: string) => h.upstreamCalls().filter((r) => r.path.includes(part)).length;

  beforeAll(async () => {
    h = await startHarness({
      dialect: 'posthog-2026',
      env: { KEY_SCOPES_REFRESH_MS: '300000', ACTIVITY_POLL_MS: '200', DESTINATION_HEALTH_POLL_MS: '200' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** The key's grant read (and the key accepted) before the subscription: it then calls nothing. */
  const known = async (key: string) => {
    const { body } = await h.gql('{ viewer { known } }', {}, key);
    expect(body.data.viewer.known).toBe(true);
    h.upstream.clearRequests();
  };

  /** The stream's one event, its refusal, and then its end. */
  const refusal = async (key: string, query: string, variables: Record<string, unknown> = {}) => {
    const s = subscribe(h, transport, key, query, variables);
    const first = await s.next();
    expect(first.done).toBe(false);
    expect(first.value.errors).toHaveLength(1);
    expect((await s.next()).done).toBe(true);
    s.dispose();
    return first.value.errors[0].extensions;
  };

  it('ends activityAdded without activity_log:read at once, naming it, without a poll', async () => {
    await known('phx_batch_read');
    const extensions = await refusal('phx_batch_read', ACTIVITY);
    expect(extensions).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'activity_log:read' });
    expect(extensions.upstream).toBeUndefined();
    await settle(400);
    expect(h.upstreamCalls()).toHaveLength(0);
    expect(h.live.slots.open).toBe(0);
  });

  it('serves activityAdded to a key with activity_log:read', async () => {
    await known('phx_read');
    const s = subscribe(h, transport, 'phx_read', ACTIVITY);
    const pending = s.next();
    await until(() => calls('/activity_log/') >= 1, 'a poll of the activity log');
    expect(calls('/activity_log/')).toBeGreaterThanOrEqual(1);
    await s.return();
    s.dispose();
    void pending;
  });

  it('ends destinationHealthChanged at once when the key may read none of the asked kinds', async () => {
    await known('phx_plugin_rw');
    const extensions = await refusal('phx_plugin_rw', HEALTH, { kinds: ['HOG_FUNCTION', 'BATCH_EXPORT'] });
    expect(extensions).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'batch_export:read' });
    expect(extensions.upstream).toBeUndefined();
    const hog = await refusal('phx_plugin_rw', HEALTH, { kinds: ['HOG_FUNCTION'] });
    expect(hog).toMatchObject({ code: 'FORBIDDEN', requiredScope: 'hog_function:read' });
    await settle(400);
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('leaves a kind the key may not read out of destinationHealthChanged unasked, and polls the rest', async () => {
    await known('phx_batch_read');
    const s = subscribe(h, transport, 'phx_batch_read', HEALTH);
    let ended = false;
    const pending = s.next().then(() => {
      ended = true;
    });
    await until(() => calls('/batch_exports/') >= 2, 'two health polls of batch exports');
    expect(ended).toBe(false);
    expect(calls('/hog_functions/')).toBe(0);
    expect(calls('/pipeline_destination_configs/')).toBe(0);
    await s.return();
    s.dispose();
    void pending;
  });
});
