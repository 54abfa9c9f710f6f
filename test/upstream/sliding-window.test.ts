// The upstream budget counts as PostHog's throttles do: the requests of the last 60 s (a sliding
// window), not a bucket that refills. Counted in 60 slots of a second, the oldest slot whole, so
// the count is never below the true one: room comes back a second late at worst, never early.
import { describe, expect, it } from 'vitest';
import { SlidingWindow } from '../../src/upstream/keys/sliding-window.ts';

describe('SlidingWindow (a minute)', () => {
  it('holds a burst of 480 for the whole minute after it, and frees it only once it has passed', () => {
    const window = new SlidingWindow(60_000);
    const t0 = 1_000_000_000_000;
    window.add(t0 + 200, 480);
    expect(window.count(t0 + 30_000)).toBe(480);
    // Still within 60 s of the burst: no room (a refilling bucket would have some by now).
    expect(window.count(t0 + 60_100)).toBe(480);
    expect(window.msUntilRoom(t0 + 60_100)).toBeGreaterThan(0);
    // Past 60 s (and the slot's second): all room again.
    expect(window.count(t0 + 61_000)).toBe(0);
  });

  it('never counts fewer than the true requests of the last 60 s, calls spread over two minutes', () => {
    const window = new SlidingWindow(60_000);
    const t0 = 1_000_000_000_000;
    const times: number[] = [];
    for (let t = t0; t < t0 + 120_000; t += 137) {
      window.add(t);
      times.push(t);
      const truth = times.filter((at) => at > t - 60_000).length;
      const counted = window.count(t);
      expect(counted).toBeGreaterThanOrEqual(truth);
      // At most the one oldest slot over: a second's worth.
      expect(counted - truth).toBeLessThanOrEqual(Math.ceil(1_000 / 137));
    }
  });
});

describe('SlidingWindow.remove (a call counted, then never sent)', () => {
  it('takes back a count while its slot is held, never below zero, and nothing of a slot since reused', () => {
    const window = new SlidingWindow(60_000);
    const t0 = 1_000_000_000_000;
    window.add(t0, 2);
    window.remove(t0 + 10);
    expect(window.count(t0 + 20)).toBe(1);
    window.remove(t0);
    window.remove(t0);
    expect(window.count(t0 + 20)).toBe(0);
    // The position of t0's slot holds a later slot now: removing for t0 leaves that one alone.
    window.add(t0 + 61_000);
    window.remove(t0);
    expect(window.count(t0 + 61_000)).toBe(1);
  });
});
