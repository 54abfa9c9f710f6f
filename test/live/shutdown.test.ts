// Shutdown ends live work cleanly: every subscription and live query completes (graphql-sse and
// graphql-ws clients see the end of the stream, not an error), and their pollers stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const ACTIVITY = 'subscription { activityAdded(projectId: "1") { id } }';
const LIVE = 'query @live { project(projectId: "1") { name } }';

describe('shutdown', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '60000', LIVE_QUERY_POLL_MS: '60000' } });
  });
  afterAll(() => h.close());

  it('completes every subscription and live query, over SSE and graphql-ws, and stops the pollers', async () => {
    const streams = [
      subscribe(h, 'sse', 'phx_full', ACTIVITY),
      subscribe(h, 'ws', 'phx_read', ACTIVITY),
      subscribe(h, 'sse', 'phx_full', LIVE),
    ];
    const pending = streams.slice(0, 2).map((s) => s.next());
    expect((await streams[2]!.next()).value.data.project.name).toEqual(expect.any(String));
    await until(() => h.live.activity.pollerCount >= 2, 'both pollers');
    expect(h.live.activity.pollerCount).toBe(2);

    h.live.closeAll();
    const ends = await Promise.all([...pending, streams[2]!.next()]);
    for (const end of ends) expect(end).toEqual({ done: true, value: undefined });
    expect(h.live.activity.pollerCount).toBe(0);
    for (const s of streams) s.dispose();
  });
});
