// A live stream's client that reads more slowly than it is written to is let go, over SSE and
// WebSocket alike. Every interval each watched socket is looked at: if bytes were waiting for its
// client at the last look and it has not taken that many since, it is slow, and its socket is
// destroyed ('close' then gives back its slot and its place in a shared stream). A client that
// keeps up over an interval, however bursty, stays; a quiet stream has nothing waiting and stays.
//
// "Taken" is what the kernel accepted (net.Socket's bytesWritten less what still waits in its
// writable buffer): a client whose receive window stays shut is found once the kernel's buffers
// are full. One timer per interval serves every watched socket.
import type { Socket } from 'node:net';

interface Pace {
  /** Lets the client go (closes its connection). */
  slow: () => void;
  /** What waited for the client at the last look. */
  waiting: number;
  /** What the kernel had taken, all told, at the last look. */
  taken: number;
}

interface Sweep {
  readonly watched: Map<Socket, Pace>;
  readonly timer: NodeJS.Timeout;
}

const sweeps = new Map<number, Sweep>();

/** What the kernel has accepted of what was written to `socket`. */
function takenOf(socket: Socket): number {
  return (socket.bytesWritten ?? 0) - socket.writableLength;
}

function look(watched: Map<Socket, Pace>): void {
  for (const [socket, pace] of watched) {
    if (socket.destroyed) {
      watched.delete(socket);
      continue;
    }
    const taken = takenOf(socket);
    if (pace.waiting > 0 && taken - pace.taken < pace.waiting) {
      watched.delete(socket);
      pace.slow();
      continue;
    }
    pace.waiting = socket.writableLength;
    pace.taken = taken;
  }
}

/**
 * Watches `socket` every `intervalMs` until it closes or the function returned is called: a
 * client that did not take, within an interval, what was waiting for it at its start is let go
 * (`slow`; by default its socket is destroyed).
 */
export function watchReadingPace(
  socket: Socket,
  intervalMs: number,
  slow: () => void = () => socket.destroy(),
): () => void {
  let sweep = sweeps.get(intervalMs);
  if (!sweep) {
    const watched = new Map<Socket, Pace>();
    const timer = setInterval(() => look(watched), intervalMs);
    timer.unref();
    sweep = { watched, timer };
    sweeps.set(intervalMs, sweep);
  }
  const { watched } = sweep;
  watched.set(socket, { slow, waiting: socket.writableLength, taken: takenOf(socket) });
  const unwatch = () => {
    socket.off('close', unwatch);
    watched.delete(socket);
    if (watched.size > 0 || sweeps.get(intervalMs)?.watched !== watched) return;
    clearInterval(sweeps.get(intervalMs)!.timer);
    sweeps.delete(intervalMs);
  };
  socket.once('close', unwatch);
  return unwatch;
}
