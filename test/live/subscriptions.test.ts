// Subscription.activityAdded over both transports, with the clients frontends use: a config
// created through the gateway arrives as its `created` entry at once (the write wakes the
// poller; the poll interval here is a minute); another key's subscription gets nothing of it;
// subscribers of one key share one poller; unsubscribing stops polling; a 429 delays the next
// poll by its Retry-After; a bad key ends the stream with UNAUTHENTICATED; no key is refused at
// once; the per-key cap holds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const ACTIVITY = `subscription($projectId: String!, $scope: String) {
  activityAdded(projectId: $projectId, scope: $scope) { id activity scope itemId detail destinationConfig { databaseId name } }
}`;
const CREATE = `mutation($input: CreateDestinationConfigInput!) {
  createDestinationConfig(input: $input) { destinationConfig { databaseId } }
}`;

/** Waits until the upstream has answered `count` activity-log polls made with `key`. */
async function polled(h: Harness, key: string, count = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (activityPolls(h, key).filter((c) => c.status !== null).length >= count) return;
    await settle(10);
  }
  throw new Error(`no ${count} activity polls with ${key}`);
}

const activityPolls = (h: Harness, key: string) =>
  h.upstreamCalls().filter((c) => c.path.endsWith('/activity_log/') && c.authorization === `Bearer ${key}`);

describe.each<Transport>(['sse', 'ws'])('activityAdded over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '60000', MAX_SUBSCRIPTIONS_PER_KEY: '3' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('delivers the created entry of a config made through the gateway at once, and nothing to another key', async () => {
    const mine = subscribe(h, transport, 'phx_full', ACTIVITY, { projectId: '1' });
    const theirs = subscribe(h, transport, 'phx_other', ACTIVITY, { projectId: '3' });
    const first = mine.next();
    const theirsFirst = theirs.next();
    await polled(h, 'phx_full');
    await polled(h, 'phx_other');

    const created = await h.gql(CREATE, {
      input: { projectId: '1', plugin: 1, order: 50, name: `Live ${transport}` },
    });
    const databaseId = created.body.data.createDestinationConfig.destinationConfig.databaseId;
    const event = await first;
    expect(event.done).toBe(false);
    expect(event.value.errors).toBeUndefined();
    expect(event.value.data.activityAdded).toMatchObject({
      activity: 'created',
      scope: 'PluginConfig',
      itemId: String(databaseId),
      destinationConfig: { databaseId, name: `Live ${transport}` },
    });
    // One poll for the baseline, one woken by the write: no waiting for the minute's interval.
    expect(activityPolls(h, 'phx_full')).toHaveLength(2);
    // The other key was not woken by it, and received nothing.
    await settle(200);
    expect(activityPolls(h, 'phx_other')).toHaveLength(1);
    const race = await Promise.race([theirsFirst.then(() => 'event'), settle(100).then(() => 'nothing')]);
    expect(race).toBe('nothing');
    await mine.return();
    await theirs.return();
    mine.dispose();
    theirs.dispose();
  });

  it('shares one poller between two subscriptions of a key, and stops polling when both leave', async () => {
    const a = subscribe(h, transport, 'phx_full', ACTIVITY, { projectId: '1', scope: 'PluginConfig' });
    const b = subscribe(h, transport, 'phx_full', ACTIVITY, { projectId: '1', scope: 'PluginConfig' });
    const aNext = a.next();
    const bNext = b.next();
    await polled(h, 'phx_full');
    await settle(100);
    expect(h.live.activity.pollerCount).toBe(1);
    expect(activityPolls(h, 'phx_full')).toHaveLength(1);

    await h.gql(CREATE, { input: { projectId: '1', plugin: 1, order: 51, name: 'Shared' } });
    const [eventA, eventB] = await Promise.all([aNext, bNext]);
    expect(eventA.value.data.activityAdded.itemId).toBe(eventB.value.data.activityAdded.itemId);
    expect(activityPolls(h, 'phx_full')).toHaveLength(2);

    await a.return();
    await b.return();
    a.dispose();
    b.dispose();
    await until(() => h.live.activity.pollerCount === 0, 'h.live.activity.pollerCount === 0');
    expect(h.live.activity.pollerCount).toBe(0);
    const before = activityPolls(h, 'phx_full').length;
    await h.gql(CREATE, { input: { projectId: '1', plugin: 1, order: 52, name: 'Nobody listens' } });
    await settle(200);
    expect(activityPolls(h, 'phx_full')).toHaveLength(before);
  });

  it('ends with UNAUTHENTICATED for a key the upstream refuses, and refuses a missing key at once', async () => {
    const bad = subscribe(h, transport, 'phx_wrong_key_123', ACTIVITY, { projectId: '1' });
    const ended = await bad.next();
    expect(ended.value.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await bad.next()).done).toBe(true);
    bad.dispose();

    h.reset();
    const none = subscribe(h, transport, null, ACTIVITY, { projectId: '1' });
    // Over WebSocket the socket itself is refused at connection_init.
    const refused = await none.next().then(
      (step) => step.value.errors[0].extensions.code,
      (event: { code: number }) => `closed ${event.code}`,
    );
    expect(refused).toBe(transport === 'sse' ? 'UNAUTHENTICATED' : 'closed 4401');
    none.dispose();
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('refuses a subscription over MAX_SUBSCRIPTIONS_PER_KEY with QUERY_TOO_COMPLEX', async () => {
    const open = [1, 2, 3].map((n) =>
      subscribe(h, transport, 'phx_read', ACTIVITY, { projectId: '1', scope: `S${n}` }),
    );
    const pending = open.map((s) => s.next());
    await polled(h, 'phx_read', 3);
    const fourth = subscribe(h, transport, 'phx_read', ACTIVITY, { projectId: '1', scope: 'S4' });
    const refused = await fourth.next();
    expect(refused.value.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'subscriptions',
    });
    fourth.dispose();
    for (const s of open) {
      await s.return();
      s.dispose();
    }
    void pending;
  });
});

describe('activityAdded polling', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '150' } });
  });
  afterAll(() => h.close());

  it('polls every ACTIVITY_POLL_MS, and a 429 delays the next poll by its Retry-After', async () => {
    h.reset();
    const s = subscribe(h, 'sse', 'phx_full', ACTIVITY, { projectId: '1' });
    void s.next();
    await polled(h, 'phx_full', 3);
    h.upstream.faults.add({
      path: '/activity_log/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      times: 1,
    });
    await until(() => activityPolls(h, 'phx_full').some((c) => c.status === 429), 'the 429 poll');
    const limited = activityPolls(h, 'phx_full').find((c) => c.status === 429)!;
    await polled(h, 'phx_full', activityPolls(h, 'phx_full').indexOf(limited) + 2);
    const after = activityPolls(h, 'phx_full').filter((c) => c.start > limited.start);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]!.start - limited.end).toBeGreaterThanOrEqual(990);
    await s.return();
    s.dispose();
  });
});
