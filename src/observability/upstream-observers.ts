// Two observers of upstream attempts as one: the process's metrics and the request's trace.
import type { AttemptObservation, UpstreamObserver } from '../upstream/call.ts';

export function bothObservers(
  first: UpstreamObserver | undefined,
  second: UpstreamObserver | undefined,
): UpstreamObserver | undefined {
  if (!first || !second) return first ?? second;
  return {
    attemptStarted(call, attempt): AttemptObservation {
      const a = first.attemptStarted(call, attempt);
      const b = second.attemptStarted(call, attempt);
      return {
        headers: a.headers && b.headers ? { ...a.headers, ...b.headers } : (a.headers ?? b.headers),
        finished(outcome) {
          a.finished(outcome);
          b.finished(outcome);
        },
      };
    },
    retrying(call, reason, waitMs) {
      first.retrying(call, reason, waitMs);
      second.retrying(call, reason, waitMs);
    },
    kept(call, outcome) {
      first.kept?.(call, outcome);
      second.kept?.(call, outcome);
    },
  };
}
