// The pings of every open event stream, on one timer rather than a timer per stream: every
// PING_MS each stream writes a ping (a comment line) unless bytes still wait for its client, and
// a stream whose client has taken not one byte of them over STALLED_PINGS pings in a row has
// stopped reading: its writer closes the connection (sse-writer.ts), which gives back its slot,
// its place in a shared stream and its socket, where it would otherwise wait for a `drain` that
// never comes until shutdown.

export const PING_MS = 12_000;

/** Pings in a row that find the same bytes waiting, not one taken: about a minute. */
export const STALLED_PINGS = 5;

/** An open stream's writer, as the ping sees it. */
export interface Pingable {
  /** Writes a ping unless the reader has bytes waiting (a reader behind needs none). */
  ping(): void;
}

const open = new Set<Pingable>();
let pinging: NodeJS.Timeout | null = null;

/** One ping of every open stream: what the timer runs (and a test, not to wait a minute). */
export function pingOpenStreams(): void {
  for (const stream of open) stream.ping();
}

export function startPinging(stream: Pingable): void {
  open.add(stream);
  if (!pinging) {
    pinging = setInterval(pingOpenStreams, PING_MS);
    pinging.unref();
  }
}

export function stopPinging(stream: Pingable): void {
  open.delete(stream);
  if (open.size === 0 && pinging) {
    clearInterval(pinging);
    pinging = null;
  }
}

/**
 * Counts the pings that found bytes waiting for a client and none of them taken since the last:
 * `stalled` says when the count reaches STALLED_PINGS.
 */
export class StallWatch {
  private waitingBefore = 0;
  private unchanged = 0;

  /** At a ping, with the bytes waiting now: true when the client has stopped reading. */
  stalled(waiting: number): boolean {
    this.unchanged = waiting > 0 && waiting === this.waitingBefore ? this.unchanged + 1 : 0;
    this.waitingBefore = waiting;
    return this.unchanged >= STALLED_PINGS;
  }
}
