// The embedded reference upstream: a plain node:http server that answers the REST interface as
// either dialect. It shares no code with the gateway, which only ever reaches it over HTTP.
//
// Everything under /api is the interface; everything under /__control drives the server from
// a test in another process (faults, latency, rate limit, the request log, a data reset).
//
// With `tls` it is served over HTTPS, offering HTTP/2 beside HTTP/1.1 (node:http2's compatibility
// API hands the same request and response objects to the handlers), as PostHog Cloud does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { serverError } from './http/api-error.ts';
import { handleApi } from './api-handler.ts';
import type { BatchExportSettings } from './batch-exports/model.ts';
import { handleControl } from './control-handler.ts';
import type { Dialect } from './dialect.ts';
import { ALL_DIALECTS } from './dialect.ts';
import { Faults } from './http/faults.ts';
import { send } from './http/send.ts';
import type { RequestLogEntry, UpstreamState } from './state.ts';
import { Store } from './store.ts';
import { Throttle } from './http/throttle.ts';

export interface ReferenceUpstreamOptions {
  port?: number;
  host?: string;
  dialect?: Dialect;
  /** The origin written into next/previous links, as a server behind a proxy would. */
  publicBase?: string;
  latencyMs?: number;
  jitterMs?: number;
  /** Requests per minute per key before 429; null (the default) for no limit. */
  rateLimitPerMinute?: number | null;
  /** false: the legacy pipeline routes answer 404, as once PostHog PR #97440 lands. Default true. */
  legacyRoutes?: boolean;
  /**
   * A test double of a broken upstream: the 2026 dialect answers secret values in plain text
   * (hog function inputs, activity changes), so a test can prove the gateway masks on its own.
   */
  leakSecrets?: boolean;
  /**
   * Any key of this prefix (`phx_bench_` lets `phx_bench_1`, `phx_bench_2`, … in) authenticates with
   * every scope, as user 1, and is never stored (http/prefixed-keys.ts): a load with a key per
   * caller or per request. None by default.
   */
  anyKeyPrefix?: string;
  /**
   * The team flags and the concurrent-backfill cap batch exports consult (2026 dialect; flags off
   * and a cap of 3 unless set here), kept across reset().
   */
  batchExports?: Partial<BatchExportSettings>;
  /**
   * Serve over TLS with this key and certificate (PEM), at an https:// url. HTTP/2 is offered by
   * ALPN beside HTTP/1.1 unless `http2` is false (an upstream that speaks only HTTP/1.1).
   */
  tls?: { key: string | Buffer; cert: string | Buffer; http2?: boolean };
}

export interface ReferenceUpstream {
  url: string;
  dialect: Dialect;
  readonly store: Store;
  readonly requests: RequestLogEntry[];
  readonly faults: Faults;
  readonly throttle: Throttle;
  clearRequests(): void;
  /** Back to the seeded data, no faults, an empty log. */
  reset(): void;
  /** The node server, for a test that watches or breaks its connections (HTTP/2 sessions). */
  readonly server: Server | Http2SecureServer;
  close(): Promise<void>;
}

export async function startReferenceUpstream(
  options: ReferenceUpstreamOptions = {},
): Promise<ReferenceUpstream> {
  const dialect = options.dialect ?? 'spec';
  if (!ALL_DIALECTS.includes(dialect)) throw new TypeError(`unknown dialect ${JSON.stringify(dialect)}`);
  const newStore = () => {
    const store = Object.assign(new Store(dialect), {
      leakSecrets: options.leakSecrets ?? false,
      anyKeyPrefix: options.anyKeyPrefix || null,
    });
    Object.assign(store.batchExports.settings, options.batchExports);
    return store;
  };
  const state: UpstreamState = {
    store: newStore(),
    dialect,
    publicBase: options.publicBase,
    legacyRoutes: options.legacyRoutes ?? true,
    requests: [],
    faults: new Faults(),
    throttle: new Throttle(options.rateLimitPerMinute ?? null),
  };
  state.faults.latency = { latencyMs: options.latencyMs ?? 0, jitterMs: options.jitterMs ?? 0 };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const handled = url.pathname.startsWith('/__control/')
      ? handleControl(state, () => upstream.reset(), req, res, url)
      : handleApi(state, req, res, url);
    handled.catch((error: unknown) => {
      console.error('reference upstream: unexpected error', error);
      if (!res.headersSent) send(res, { status: 500, json: serverError().body() });
      else res.destroy();
    });
  };
  const server = serve(options.tls, handle);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const upstream: ReferenceUpstream = {
    url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`,
    dialect,
    get store() {
      return state.store;
    },
    requests: state.requests,
    faults: state.faults,
    throttle: state.throttle,
    clearRequests: () => {
      state.requests.length = 0;
    },
    reset: () => {
      state.store = newStore();
      state.requests.length = 0;
      state.faults.clear();
      state.throttle.reset();
    },
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
        else for (const socket of openSockets.get(server) ?? []) socket.destroy();
      }),
  };
  return upstream;
}

type Handle = (req: IncomingMessage, res: ServerResponse) => void;

function serve(tls: ReferenceUpstreamOptions['tls'], handle: Handle): Server | Http2SecureServer {
  if (!tls) {
    const server = createServer(handle);
    server.keepAliveTimeout = 30_000;
    return server;
  }
  const { key, cert } = tls;
  if (tls.http2 === false) {
    const server = createHttpsServer({ key, cert }, handle);
    server.keepAliveTimeout = 30_000;
    return server;
  }
  // The compatibility API's request and response are node:http's in all the handlers use.
  const server = createSecureServer({ key, cert, allowHTTP1: true }, handle as never);
  // It has no closeAllConnections: close() ends its sockets, HTTP/2 sessions and HTTP/1.1 alike.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openSockets.set(server, sockets);
  return server;
}

const openSockets = new WeakMap<Http2SecureServer, Set<Socket>>();
