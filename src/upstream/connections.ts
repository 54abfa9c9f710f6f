// The connections to the upstream, and how many calls they carry at once: HTTP/2 when the upstream
// offers it over TLS (PostHog Cloud does), so hundreds of calls share a few connections; HTTP/1.1,
// one call per connection, to an upstream that does not (and to any http:// one).
//
// Which it is, the upstream says in its TLS handshake (ALPN). Until the first connection has said
// it, one call goes at a time: were all of a cold burst sent at once, each would open its own
// connection before any knew it could share one. The first connection that does not offer h2
// settles it on HTTP/1.1 for the life of the process; calls already on the HTTP/2 pool finish there.
// After a lost connection (GOAWAY) the calls tried again together may open the HTTP/2 pool's few
// connections at once (3 for 256 calls in flight), not one each.
//
// Over HTTP/2 undici runs one stream per connection unless `pipelining` is raised (undici#4143,
// fixed only in 8.x), and raising it on a connection that turns out HTTP/1.1 would pipeline that
// one: each connection gets its factor once its handshake has said which it is. Writes share the
// connection with reads (attempt.ts says why undici is told every call is idempotent).
import { createSecureContext, rootCertificates, type SecureContext, type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { Client, Pool } from './undici-pool.ts';

/** Streams per HTTP/2 connection: undici's default, and what most servers allow (a peer may lower it). */
export const STREAMS_PER_CONNECTION = 100;

export type Protocol = 'http/1.1' | 'h2';

export interface ConnectionSettings {
  origin: string;
  /** Calls in flight at once, over either protocol. */
  maxInFlight: number;
  /** Connections at most; null: as many as the calls in flight need. */
  maxConnections: number | null;
  /** Offer HTTP/2 to an https:// upstream. */
  http2: boolean;
  /** PEM certificates trusted for the upstream beside Node's own roots; null: Node's alone. */
  ca: string | null;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export class UpstreamConnections {
  /** null until the first connection's handshake says. */
  protocol: Protocol | null;
  /** Called when `slots` changes (once the protocol is known). */
  onSlots: (slots: number) => void = () => {};

  private readonly http1: Pool;
  private http2Pool: Pool | null = null;

  constructor(private readonly settings: ConnectionSettings) {
    const tls = settings.ca ? trusting(settings.ca) : undefined;
    const common = {
      connect: { timeout: settings.connectTimeoutMs, ...(tls && { secureContext: tls }) },
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
    };
    this.http1 = new Pool(settings.origin, {
      ...common,
      connections: settings.maxConnections ?? settings.maxInFlight,
      keepAliveTimeout: 10_000,
    });
    const offersH2 = settings.http2 && settings.origin.startsWith('https:');
    this.protocol = offersH2 ? null : 'http/1.1';
    if (!offersH2) return;
    this.http2Pool = new Pool(settings.origin, {
      ...common,
      allowH2: true,
      maxConcurrentStreams: STREAMS_PER_CONNECTION,
      connections: this.h2Connections,
      keepAliveTimeout: 10_000,
      factory: (origin, options) => {
        const connect = (options as { connect: buildConnector.connector }).connect;
        const client: Client = new Client(origin, {
          ...options,
          connect: (opts, callback) =>
            connect(opts, (...result: buildConnector.CallbackArgs) => {
              // Before undici reads it: many streams over h2, one call at a time over HTTP/1.1.
              const socket = result[1] as TLSSocket | null;
              if (socket) client.pipelining = this.learnt(socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1');
              callback(...result);
            }),
        });
        return client;
      },
    });
  }

  /** Where the next call goes. */
  get pool(): Pool {
    return this.protocol === 'http/1.1' || !this.http2Pool ? this.http1 : this.http2Pool;
  }

  /** Calls that may be in flight at once. */
  get slots(): number {
    const { maxInFlight, maxConnections } = this.settings;
    if (this.protocol === null) return 1;
    if (this.protocol === 'http/1.1') return Math.min(maxInFlight, maxConnections ?? maxInFlight);
    return Math.min(maxInFlight, this.h2Connections * STREAMS_PER_CONNECTION);
  }

  /** Both pools' sockets and queues, for metrics. */
  stats(): { connected: number; queued: number; running: number } {
    const one = this.http1.stats;
    const two = this.http2Pool?.stats;
    return {
      connected: one.connected + (two?.connected ?? 0),
      queued: one.queued + (two?.queued ?? 0),
      running: one.running + (two?.running ?? 0),
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.http1.close(), this.http2Pool?.closed ? null : this.http2Pool?.close()]);
  }

  private get h2Connections(): number {
    const { maxInFlight, maxConnections } = this.settings;
    return maxConnections ?? Math.ceil(maxInFlight / STREAMS_PER_CONNECTION);
  }

  /** What a connection's handshake said; returns its pipelining factor. */
  private learnt(protocol: Protocol): number {
    if (protocol === 'h2') {
      if (this.protocol === null) this.settle('h2');
      return STREAMS_PER_CONNECTION;
    }
    if (this.protocol !== 'http/1.1') this.settle('http/1.1');
    return 1;
  }

  private settle(protocol: Protocol): void {
    this.protocol = protocol;
    // Calls still on the HTTP/2 pool finish there; nothing new is sent to it.
    if (protocol === 'http/1.1') void this.http2Pool?.close();
    this.onSlots(this.slots);
  }
}

/** Node's roots and the operator's own CA: a private CA signs a self-hosted upstream's certificate. */
function trusting(ca: string): SecureContext {
  return createSecureContext({ ca: [...rootCertificates, ca] });
}
