// The feed (issue 40, item 5): activityAdded delivers BatchExport entries, and a write to a batch
// export through the gateway wakes it at once, as the other writes do (the poll interval here
// is a minute), over both transports.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const FEED = `subscription {
  activityAdded(projectId: "1", scope: "BatchExport") { activity scope itemId batchExport { uuid paused } }
}`;
const PAUSE = 'mutation($id: ID!) { pauseBatchExport(input: {id: $id}) { batchExport { paused } } }';
const BIGQUERY = '018f0a5e-0020-7000-8000-000000000002';

const polls = (h: Harness) => h.upstreamCalls().filter((c) => c.path.endsWith('/activity_log/'));

describe.each<Transport>(['sse', 'ws'])('batch export entries in activityAdded over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026', env: { ACTIVITY_POLL_MS: '60000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('delivers the entry a pause through the gateway leaves, woken by the write', async () => {
    const feed = subscribe(h, transport, 'phx_full', FEED, {});
    const first = feed.next();
    await until(
      () => polls(h).filter((c) => c.status !== null).length > 0,
      'polls(h).filter((c) => c.status !== null).length > 0',
    );
    const id = Buffer.from(`BatchExport:1:${BIGQUERY}`).toString('base64');
    const paused = await h.gql(PAUSE, { id });
    expect(paused.body.errors).toBeUndefined();
    const event = await first;
    expect(event.value.errors).toBeUndefined();
    expect(event.value.data.activityAdded).toMatchObject({
      scope: 'BatchExport',
      itemId: BIGQUERY,
      batchExport: { uuid: BIGQUERY, paused: true },
    });
    // The baseline poll and the one the write woke: no waiting for the minute.
    expect(polls(h)).toHaveLength(2);
    await feed.return();
    feed.dispose();
  });
});
