// A stream's push whose backlog is bounded: past MAX_EVENTS_BEHIND events handed and not taken,
// the stream ends with fellBehind (after the events it has).
import { codedError } from '../../errors/codes.ts';
import type { PollerEvent } from './poller.ts';

/**
 * The most events a stream may have been handed and not taken: a reading's (a page of 1,000
 * entries and an error event) and a few more. A Repeater refuses a 1,025th push by throwing.
 */
export const MAX_EVENTS_BEHIND = 1_020;

/** The stream ended because it fell MAX_EVENTS_BEHIND behind the log. */
export const fellBehind = () =>
  codedError(
    'QUERY_TOO_COMPLEX',
    `This subscription fell ${MAX_EVENTS_BEHIND} entries behind the activity log: its selection takes longer to answer than entries arrive (each entry's nested fields are read from the upstream). It has ended; subscribe again with \`after\` set to the id of the last entry you received to read on, or select fewer nested fields.`,
    { measure: 'activityBacklog', limit: MAX_EVENTS_BEHIND },
  );

/**
 * A stream's push that holds its backlog to MAX_EVENTS_BEHIND: the event that would go past it
 * ends the stream instead (fellBehind, after the events it has), and what comes after is dropped.
 * The poller paces a burst by the slowest stream only up to its deadline (activity-poller.ts), so
 * a stream whose each event costs upstream calls can fall behind a burst of several pages.
 */
export function boundedPush<Item>(
  push: (event: PollerEvent<Item>) => Promise<unknown>,
  stop: () => unknown,
): (event: PollerEvent<Item>) => Promise<unknown> {
  let behind = 0;
  let ended = false;
  const taken = () => {
    behind--;
  };
  return (event) => {
    if (ended) return Promise.resolve();
    if (behind >= MAX_EVENTS_BEHIND - 1 && event.kind !== 'end') {
      ended = true;
      const last = push({ kind: 'end', error: fellBehind() });
      stop();
      return last;
    }
    behind++;
    const pushed = push(event);
    void pushed.then(taken, taken);
    return pushed;
  };
}
