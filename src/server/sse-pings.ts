// The pings of every open event stream, on one timer rather than a timer per stream: every
// PING_MS each stream writes a ping (a comment line) unless bytes still wait for its client. A
// stream's writes, pings included, are also what keeps its socket's stall timeout from running
// out (sse-writer.ts): a stream with nothing to say still writes every PING_MS.

export const PING_MS = 12_000;

/** An open stream's writer, as the ping sees it. */
export interface Pingable {
  /** Writes a ping unless the reader has bytes waiting (a reader behind needs none). */
  ping(): void;
}

const open = new Set<Pingable>();
let pinging: NodeJS.Timeout | null = null;

function pingOpenStreams(): void {
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
