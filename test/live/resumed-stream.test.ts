// The seam of a resumed activityAdded (src/live/activity/resumed-stream.ts) at the moment its client
// leaves: a stream stopped while the catch-up's last event is being taken never joins the
// poller, or the poller would go on polling, with the caller's key, for a subscriber gone.
import { expect, it } from 'vitest';
import type { ActivityCatchUp } from '../../src/live/activity/catch-up.ts';
import type { PollerEvent } from '../../src/live/activity/poller.ts';
import { runResumed } from '../../src/live/activity/resumed-stream.ts';
import type { ActivityEntryRecord } from '../../src/upstream/posthog/records.ts';
import { RequestSignal } from '../../src/upstream/request-signal.ts';

const entry = { id: 'e1', createdAt: '2026-11-29T12:00:00Z' } as ActivityEntryRecord;

it('a stream stopped as its catch-up’s last event is taken does not join the poller', async () => {
  const signal = new RequestSignal();
  const catchUp = {
    first: async (): Promise<PollerEvent[]> => [{ kind: 'entry', entry }],
    again: async (): Promise<PollerEvent[]> => [],
    covers: () => false,
  } as unknown as ActivityCatchUp;
  let joins = 0;
  await runResumed({
    catchUp,
    reader: () => async () => {
      throw new Error('no pass reads the upstream here');
    },
    // The event is taken, and the stream stops in the same turn, after the catch-up saw it
    // taken and before the stream goes on: the stop's teardown aborts the signal then.
    push: () => {
      const taken = Promise.resolve();
      taken.then(() => queueMicrotask(() => signal.abort(new Error('subscription ended'))));
      return taken;
    },
    join: () => {
      joins++;
    },
    stop: () => {},
    signal,
    pollMs: 1_000,
  });
  expect(signal.aborted).toBe(true);
  expect(joins).toBe(0);
});
