// Identical live work is done once (src/live/shared-live-work.ts): subscribers of the same
// operation, variables and key, over SSE and WebSocket alike, get each event from one execution
// (counted as the upstream reads an event's selection makes), the SSE ones byte for byte; other
// keys or variables never share it; a subscriber that leaves mid-delivery costs the others
// nothing; a @live query is run once for all who asked it, and a newcomer gets a fresh run's answer.
import { parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resumesFromAPoint } from '../../src/live/shared-live-work.ts';
import { rawSse, subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const FEED = `subscription Feed($projectId: String!, $scope: String) {
  activityAdded(projectId: $projectId, scope: $scope) { id activity itemId destinationConfig { databaseId name } }
}`;
const CREATE = `mutation Create($input: CreateDestinationConfigInput!) {
  createDestinationConfig(input: $input) { destinationConfig { databaseId } }
}`;
const LIVE_NAME = 'query LiveName @live { project(projectId: "1") { name } }';

const configReads = (h: Harness, databaseId: number, projectId = '1') =>
  h.upstreamCalls({
    method: 'GET',
    path: `/api/projects/${projectId}/pipeline_destination_configs/${databaseId}/`,
  });

const activityPolls = (h: Harness) => h.upstreamCalls().filter((c) => c.path.endsWith('/activity_log/'));

async function create(
  h: Harness,
  key: string,
  name: string,
  order: number,
  projectId = '1',
): Promise<number> {
  const { body } = await h.gql(CREATE, { input: { projectId, plugin: 1, order, name } }, key);
  return body.data.createDestinationConfig.destinationConfig.databaseId;
}

describe('identical live work is done once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { ACTIVITY_POLL_MS: '60000', LIVE_QUERY_POLL_MS: '60000', MAX_SUBSCRIPTIONS_PER_KEY: '10' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('five SSE and two WebSocket subscribers of one operation and key: one execution per event, the SSE payloads byte for byte the same', async () => {
    const sse = Array.from({ length: 5 }, () => rawSse(h, 'phx_full', FEED, { projectId: '1' }));
    const ws = [1, 2].map(() => subscribe(h, 'ws', 'phx_full', FEED, { projectId: '1' }));
    const wsNext = ws.map((s) => s.next());
    await Promise.all(sse.map((s) => s.ready));
    await until(
      () => activityPolls(h).some((c) => c.status !== null) && h.live.slots.open === 7,
      'seven slots',
    );
    expect(h.live.activity.pollerCount).toBe(1);

    const databaseId = await create(h, 'phx_full', 'Shared once', 61);
    await until(() => sse.every((s) => s.events.length === 1), 'every SSE event');
    const wsEvents = await Promise.all(wsNext);

    expect(new Set(sse.map((s) => s.events[0])).size).toBe(1);
    const entry = JSON.parse(sse[0]!.events[0]!).data.activityAdded;
    expect(entry).toMatchObject({
      activity: 'created',
      destinationConfig: { databaseId, name: 'Shared once' },
    });
    for (const event of wsEvents) expect(event.value.data.activityAdded).toEqual(entry);
    // The event's destinationConfig was read once, for seven subscribers.
    expect(configReads(h, databaseId)).toHaveLength(1);

    for (const s of sse) s.close();
    for (const s of ws) {
      await s.return();
      s.dispose();
    }
    await until(() => h.live.slots.open === 0 && h.live.activity.pollerCount === 0, 'every slot given back');
  });

  it('never shares between keys or variables: each pair of the same gets one execution', async () => {
    const operations = [
      { key: 'phx_full', variables: { projectId: '1' } },
      { key: 'phx_full', variables: { projectId: '1' } },
      // The same variables in another order are the same operation.
      { key: 'phx_full', variables: { projectId: '1', scope: 'PluginConfig' } },
      { key: 'phx_full', variables: { scope: 'PluginConfig', projectId: '1' } },
      { key: 'phx_other', variables: { projectId: '3' } },
      { key: 'phx_other', variables: { projectId: '3' } },
    ];
    const streams = operations.map((o) => rawSse(h, o.key, FEED, o.variables));
    await Promise.all(streams.map((s) => s.ready));
    await until(() => h.live.slots.open === 6 && h.live.activity.pollerCount === 3, 'three pollers');
    await until(() => activityPolls(h).filter((c) => c.status !== null).length === 3, 'three first polls');

    const mine = await create(h, 'phx_full', 'Per key', 62);
    const theirs = await create(h, 'phx_other', 'Their own', 62, '3');
    await until(() => streams.every((s) => s.events.length === 1), 'every event');
    expect(configReads(h, mine)).toHaveLength(2);
    expect(configReads(h, theirs, '3')).toHaveLength(1);
    expect(configReads(h, theirs, '3')[0]!.authorization).toBe('Bearer phx_other');
    const names = streams.map((s) => JSON.parse(s.events[0]!).data.activityAdded.destinationConfig.name);
    expect(names).toEqual(['Per key', 'Per key', 'Per key', 'Per key', 'Their own', 'Their own']);
    for (const s of streams) s.close();
    await until(() => h.live.slots.open === 0, 'every slot given back');
  });

  it('a subscriber that leaves mid-delivery costs the others nothing', async () => {
    const leaving = rawSse(h, 'phx_full', FEED, { projectId: '1' });
    const staying = [1, 2].map(() => rawSse(h, 'phx_full', FEED, { projectId: '1' }));
    await Promise.all([leaving, ...staying].map((s) => s.ready));
    await until(
      () => h.live.slots.open === 3 && activityPolls(h).some((c) => c.status !== null),
      'three slots',
    );

    const first = await create(h, 'phx_full', 'Before leaving', 63);
    await until(() => leaving.events.length === 1, 'the leaving subscriber’s event');
    leaving.close();
    await until(() => staying.every((s) => s.events.length === 1), 'the first event');
    await until(() => h.live.slots.open === 2, 'the leaver’s slot back');

    const second = await create(h, 'phx_full', 'After leaving', 64);
    await until(() => staying.every((s) => s.events.length === 2), 'the second event');
    expect(configReads(h, first)).toHaveLength(1);
    expect(configReads(h, second)).toHaveLength(1);
    expect(JSON.parse(staying[0]!.events[1]!).data.activityAdded.destinationConfig.name).toBe(
      'After leaving',
    );
    for (const s of staying) s.close();
    await until(() => h.live.slots.open === 0 && h.live.activity.pollerCount === 0, 'the poller stopped');
  });

  it('runs a @live query once for all who asked it; a newcomer gets a fresh run’s answer, alone', async () => {
    const project = () => h.upstreamCalls({ method: 'GET', path: '/api/projects/1/' });
    const first = [1, 2, 3].map(() => rawSse(h, 'phx_full', LIVE_NAME, {}));
    await until(() => first.every((s) => s.events.length === 1), 'three answers');
    // One run, or a fresh one more for each that joined once it had answered.
    const before = project().length;
    expect(before).toBeLessThanOrEqual(3);
    const late = rawSse(h, 'phx_full', LIVE_NAME, {});
    await until(() => late.events.length === 1, 'the newcomer’s answer');
    expect(late.events[0]).toBe(first[0]!.events[0]);
    expect(JSON.parse(late.events[0]!).data.project.name).toBe('Hedgebox (production)');
    // Read again for the newcomer; the others, whose answer it repeats, hear nothing new.
    expect(project()).toHaveLength(before + 1);
    expect(first.map((s) => s.events.length)).toEqual([1, 1, 1]);
    for (const s of [...first, late]) s.close();
    await until(() => h.live.slots.open === 0, 'every slot given back');
  });

  it('a newcomer with a key revoked upstream since the stream’s last answer gets no data', async () => {
    const store = h.upstream.store;
    store.keys.set('phx_revocable', { ...store.keys.get('phx_full')!, value: 'phx_revocable' });
    const first = rawSse(h, 'phx_revocable', LIVE_NAME, {});
    await until(() => first.events.length === 1, 'the first answer');
    store.keys.delete('phx_revocable');
    const late = rawSse(h, 'phx_revocable', LIVE_NAME, {});
    await until(() => late.events.length === 1, 'the newcomer’s answer');
    const answer = JSON.parse(late.events[0]!);
    expect(answer.data?.project?.name ?? null).toBeNull();
    expect(answer.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const s of [first, late]) s.close();
    await until(() => h.live.slots.open === 0, 'every slot given back');
  });
});

describe('a subscription resumed from a point is never shared', () => {
  const resumes = (query: string, variables: Record<string, unknown> = {}) =>
    resumesFromAPoint(parse(query), variables);

  it('sees `after` given in a fragment, by a variable, or by a variable’s default', () => {
    expect(resumes('subscription { activityAdded(projectId: "1", after: "e1") { id } }')).toBe(true);
    expect(
      resumes(
        'subscription { ...F } fragment F on Subscription { activityAdded(projectId: "1", after: "e1") { id } }',
      ),
    ).toBe(true);
    expect(
      resumes('subscription($a: String) { activityAdded(projectId: "1", after: $a) { id } }', { a: 'e1' }),
    ).toBe(true);
    expect(
      resumes('subscription($a: String = "e1") { activityAdded(projectId: "1", after: $a) { id } }'),
    ).toBe(true);
  });

  it('shares one whose `after` is absent or null', () => {
    expect(resumes('subscription { activityAdded(projectId: "1") { id } }')).toBe(false);
    expect(resumes('subscription { activityAdded(projectId: "1", after: null) { id } }')).toBe(false);
    expect(resumes('subscription($a: String) { activityAdded(projectId: "1", after: $a) { id } }')).toBe(
      false,
    );
    expect(
      resumes('subscription($a: String = "e1") { activityAdded(projectId: "1", after: $a) { id } }', {
        a: null,
      }),
    ).toBe(false);
  });
});
