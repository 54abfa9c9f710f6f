// A healthy event stream that has nothing to say for longer than STALLED_READER_MS (here 1 s,
// below the 12 s between pings) stays open: the stall timeout lets go only of a client with bytes
// waiting for it. Over both sinks an SSE stream is written to: node's response (@defer, whose
// request's lifetime still watches it) and the connection taken from node's server (a
// subscription).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushEntry } from '../support/activity-entries.ts';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const QUIET_MS = 2_500;
const DEFERRED = `query Quiet {
  project(projectId: "1") {
    name
    ... @defer(label: "log") { activityLog(first: 1) { edges { node { id } } } }
  }
}`;
const ACTIVITY = 'subscription { activityAdded(projectId: "1", scope: "FeatureFlag") { itemId } }';
const LOG = '/api/projects/1/activity_log/';

describe('an event stream quiet for longer than STALLED_READER_MS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { STALLED_READER_MS: '1000', ACTIVITY_POLL_MS: '500', LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('@defer over SSE (node response): the deferred part arrives after the quiet, and the stream completes', async () => {
    h.upstream.faults.add({ path: LOG, method: 'GET', action: { kind: 'delay', ms: QUIET_MS } });
    const response = await fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer phx_full',
      },
      body: JSON.stringify({ query: DEFERRED }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter((e) => e.startsWith('event: '));
    expect(events.map((e) => e.split('\n')[0])).toEqual(['event: next', 'event: next', 'event: complete']);
    expect(JSON.parse(events[1]!.split('\ndata: ')[1]!).incremental[0].data.activityLog.edges).toHaveLength(
      1,
    );
  });

  it('a subscription over SSE (taken connection): the entry after the quiet arrives', async () => {
    // Polled every 500 ms, and quiet: a poll that finds nothing writes nothing to the stream.
    const stream = subscribe(h, 'sse', 'phx_full', ACTIVITY);
    const first = stream.next();
    await until(
      () => h.upstreamCalls().some((c) => c.path === LOG && c.status !== null),
      'the baseline poll answered',
    );
    await settle(QUIET_MS);
    const itemId = pushEntry(h.upstream.store, 'FeatureFlag', 'after-the-quiet').item_id;
    const step = await first;
    expect(step.value.data.activityAdded.itemId).toBe(itemId);
    stream.dispose();
  });
});
