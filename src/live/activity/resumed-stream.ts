// A resumed activityAdded (`after`): the catch-up (activity-catch-up.ts) first, then the shared
// poller's events, with nothing lost or repeated across the seam:
// 1. the first pass reads back to `after` before any poller is asked, so a bad `after` polls nothing;
// 2. the stream joins its poller, whose events are held from then on;
// 3. a second pass reads back to the newest entry delivered: what came during the first;
// 4. the held events follow, less what the catch-up delivered, then the poller's as they come.
// The poller finds after the join whatever the second pass could not have read, and whatever it
// finds that the passes did read is dropped: each entry arrives once, oldest first. A pass that
// fails transiently is retried with the poller's backoff after an event with its error; one whose
// answer says nothing can come (ENDING_CODES, or an `after` the log does not hold) ends the stream.
import type { GraphQLError } from 'graphql';
import type { RequestSignal } from '../../upstream/request-signal.ts';
import { sleep } from '../../upstream/request-signal.ts';
import type { ActivityCatchUp, ReadNewestFirst } from './catch-up.ts';
import { ENDING_CODES, retryDelayMs } from './poll-failures.ts';
import type { PollerEvent, Subscriber } from './poller.ts';

export interface ResumeOptions {
  catchUp: ActivityCatchUp;
  /** A reader for one pass (its own loaders and deadline, the stream's signal). */
  reader: () => ReadNewestFirst;
  /** Hands the client an event; settles when it is taken or the stream has stopped. */
  push: (event: PollerEvent) => Promise<unknown>;
  /** Joins the poller (once). */
  join: (subscriber: Subscriber) => void;
  stop: () => void;
  /** Aborted when the stream stops: a pass in flight is cut, no retry follows. */
  signal: RequestSignal;
  pollMs: number;
}

export async function runResumed(o: ResumeOptions): Promise<void> {
  const first = await pass(o, (read) => o.catchUp.first(read));
  if (first === null || !(await pushAll(o, first))) return;
  // Stopped since pushAll looked (its stop's teardown, which leaves the poller, has run): a join
  // now would keep the poller polling for a subscriber gone.
  if (o.signal.aborted) return;
  const held: PollerEvent[] = [];
  let live = false;
  o.join((event) => {
    if (live) return forward(o, event);
    held.push(event);
    return Promise.resolve();
  });
  const second = await pass(o, (read) => o.catchUp.again(read));
  if (second === null || !(await pushAll(o, second))) return;
  while (held.length > 0) {
    if (o.signal.aborted) return;
    await forward(o, held.shift()!);
  }
  // No await between the last look at `held` and this: the poller's next event goes straight on.
  live = true;
}

/** A poller's event, unless the client has its entry already. */
function forward(o: ResumeOptions, event: PollerEvent): Promise<unknown> {
  if (event.kind === 'entry' && o.catchUp.covers(event.entry)) return Promise.resolve();
  const taken = o.push(event);
  if (event.kind === 'end') o.stop();
  return taken;
}

/** Each event in turn, each taken before the next (a catch-up may hold 1,000); false once stopped. */
async function pushAll(o: ResumeOptions, events: PollerEvent[]): Promise<boolean> {
  for (const event of events) {
    if (o.signal.aborted) return false;
    await o.push(event);
  }
  return !o.signal.aborted;
}

/** One pass, retried while it fails transiently; null when the stream ended instead. */
async function pass(
  o: ResumeOptions,
  run: (read: ReadNewestFirst) => Promise<PollerEvent[]>,
): Promise<PollerEvent[] | null> {
  for (let failures = 1; ; failures++) {
    if (o.signal.aborted) return null;
    try {
      return await run(o.reader());
    } catch (error) {
      if (o.signal.aborted) return null;
      const coded = error as GraphQLError;
      const code = String(coded.extensions?.code ?? '');
      if (code === 'BAD_USER_INPUT' || ENDING_CODES.has(code)) {
        void o.push({ kind: 'end', error: coded });
        o.stop();
        return null;
      }
      void o.push({ kind: 'error', error: coded });
      await sleep(retryDelayMs(coded, failures, o.pollMs), o.signal);
    }
  }
}
