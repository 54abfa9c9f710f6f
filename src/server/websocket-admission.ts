// Who may hold a WebSocket, and for how long, so that sockets cannot be piled up by anyone:
// - at most `maxPerPeer` sockets from one peer address (the upgrade is refused with 429 past it);
// - `connection_init` must carry a `Bearer` key (in its payload, or the upgrade's Authorization
//   header), else the socket is closed 4401 with the message an HTTP request without one gets;
// - at most `maxPerKey` sockets of one key (its hash), else closed 1008 (policy violation; graphql-ws
//   keeps 4400-4499 for its own codes);
// - a socket with no operation running for `idleMs` is closed 1000: a client opens one again when
//   it has something to run (graphql-ws's clients do, lazily, by default).
import type { WebSocket } from 'ws';
import { authorizationOf, hashKey, type KeyHash } from '../core/caller-key.ts';
import { missingAuthorization } from '../errors/codes.ts';

export interface SocketLimits {
  /** WS_IDLE_TIMEOUT_MS */
  idleMs: number;
  /** MAX_SOCKETS_PER_KEY */
  maxPerKey: number;
  /** MAX_SOCKETS_PER_PEER */
  maxPerPeer: number;
}

/** graphql-ws's own code for a refused connection_init (CloseCode.Unauthorized). */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_TOO_MANY = 1008;

/** One count per name, none kept at zero. */
class Counts<K> {
  private readonly counts = new Map<K, number>();

  /** Counts one more of `name` unless it has `max`; whether it did. */
  take(name: K, max: number): boolean {
    const count = this.counts.get(name) ?? 0;
    if (count >= max) return false;
    this.counts.set(name, count + 1);
    return true;
  }

  give(name: K): void {
    const count = (this.counts.get(name) ?? 1) - 1;
    if (count <= 0) this.counts.delete(name);
    else this.counts.set(name, count);
  }
}

export class SocketAdmission {
  private readonly peers = new Counts<string>();
  private readonly keys = new Counts<KeyHash>();

  constructor(readonly limits: SocketLimits) {}

  /**
   * At the upgrade: whether `address` may open one more; the function returned gives it back. An
   * IPv6 peer is its /64, which one host commonly holds whole.
   */
  admitPeer(address: string): (() => void) | null {
    const peer = peerOf(address);
    if (!this.peers.take(peer, this.limits.maxPerPeer)) return null;
    return once(() => this.peers.give(peer));
  }

  /**
   * At connection_init: the key it brings, or null once the socket is closed for want of one (or
   * for too many of its key's); the key's count is given back when the socket closes.
   */
  admitKey(socket: WebSocket, given: string | null): string | null {
    const authorization = authorizationOf(given);
    if (!authorization) {
      socket.close(CLOSE_UNAUTHORIZED, missingAuthorization().message);
      return null;
    }
    const hash = hashKey(authorization);
    if (!this.keys.take(hash, this.limits.maxPerKey)) {
      socket.close(
        CLOSE_TOO_MANY,
        `More than ${this.limits.maxPerKey} sockets of one key: use one socket for many operations.`,
      );
      return null;
    }
    socket.once('close', () => this.keys.give(hash));
    return authorization;
  }

  /** Closes `socket` once it has run no operation for idleMs; `busy(n)` says how many run now. */
  watchIdle(socket: WebSocket): (running: number) => void {
    let timer: NodeJS.Timeout | null = null;
    const arm = (running: number) => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (running > 0 || socket.readyState > 1) return;
      timer = setTimeout(() => socket.close(1000, 'No operation: closed as idle.'), this.limits.idleMs);
      timer.unref();
    };
    socket.once('close', () => arm(1));
    arm(0);
    return arm;
  }
}

/** An IPv4 address as it is; an IPv6 one as its first four groups (its /64). */
function peerOf(address: string): string {
  if (!address.includes(':') || address.startsWith('::ffff:')) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = head.split(':').filter(Boolean);
  const fill = 8 - groups.length - tail.split(':').filter(Boolean).length;
  const full = address.includes('::')
    ? [...groups, ...Array(Math.max(0, fill)).fill('0'), ...tail.split(':').filter(Boolean)]
    : groups;
  return `${full.slice(0, 4).join(':')}::/64`;
}

function once(run: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run();
  };
}
