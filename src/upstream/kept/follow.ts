// Waiting for another process's read of a place (a shared shelf's claim, shelf.ts): the place is
// looked at, more slowly each time, until its entry appears, the reader lets go of it without one,
// or the caller's deadline or signal ends the wait.
import type { CallerOptions } from '../call.ts';
import { sleep } from '../request-signal.ts';
import type { KeptAnswer, Place, Shelf } from './shelf.ts';

const FIRST_WAIT_MS = 10;
const LONGEST_WAIT_MS = 200;

/** The entry the other reader kept; null when it kept none (the caller then reads itself). */
export async function followRead(
  shelf: Shelf,
  place: Place,
  flight: string,
  caller: CallerOptions,
  ttlMs: number,
): Promise<KeptAnswer | null> {
  let waitMs = FIRST_WAIT_MS;
  while (!caller.signal.aborted && Date.now() < caller.deadline) {
    await sleep(Math.min(waitMs, Math.max(1, caller.deadline - Date.now())), caller.signal);
    waitMs = Math.min(LONGEST_WAIT_MS, waitMs * 2);
    const look = await shelf.look(place.id, place.generations, flight);
    if (look.kept && Date.now() - look.kept.at < ttlMs) return look.kept;
    if (!look.reading) return null;
  }
  return null;
}
