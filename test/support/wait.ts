// Waiting in tests without asserting on time: `settle` lets timers and I/O run, `until` polls a
// condition and fails only when it never comes (its bound is generous: a loaded machine is slow).

/** Resolves after `ms`: lets the event loop, timers and other processes get on. */
export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `done()` holds, checking every `everyMs`; fails naming `what` when it still does
 * not after `withinMs` (a bound on a wait that never ends, not a measure of speed).
 */
export async function until(
  done: () => boolean | Promise<boolean>,
  what = 'the condition',
  { withinMs = 15_000, everyMs = 10 }: { withinMs?: number; everyMs?: number } = {},
): Promise<void> {
  const end = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`waited in vain for ${what}`);
    await settle(everyMs);
  }
}
