// The embedded reference upstream: a plain node:http server that answers the REST interface as
// either dialect. It shares no code with the gateway, which only ever reaches it over HTTP.
//
// Everything under /api is the interface; everything under /__control drives the server from
// a test in another process (faults, latency, rate limit, the request log, a data reset).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverError } from './api-error.ts';
import { handleApi } from './api-handler.ts';
import type { BatchExportSettings } from './batch-export-model.ts';
import { handleControl } from './control-handler.ts';
import type { Dialect } from './dialect.ts';
import { ALL_DIALECTS } from './dialect.ts';
import { Faults } from './faults.ts';
import { send } from './send.ts';
import type { RequestLogEntry, UpstreamState } from './state.ts';
import { Store } from './store.ts';
import { Throttle } from './throttle.ts';

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
   * The team flags and the concurrent-backfill cap batch exports consult (2026 dialect; flags off
   * and a cap of 3 unless set here), kept across reset().
   */
  batchExports?: Partial<BatchExportSettings>;
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
  close(): Promise<void>;
}

export async function startReferenceUpstream(
  options: ReferenceUpstreamOptions = {},
): Promise<ReferenceUpstream> {
  const dialect = options.dialect ?? 'spec';
  if (!ALL_DIALECTS.includes(dialect)) throw new TypeError(`unknown dialect ${JSON.stringify(dialect)}`);
  const newStore = () => {
    const store = Object.assign(new Store(dialect), { leakSecrets: options.leakSecrets ?? false });
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

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const handled = url.pathname.startsWith('/__control/')
      ? handleControl(state, () => upstream.reset(), req, res, url)
      : handleApi(state, req, res, url);
    handled.catch((error: unknown) => {
      console.error('reference upstream: unexpected error', error);
      if (!res.headersSent) send(res, { status: 500, json: serverError().body() });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const upstream: ReferenceUpstream = {
    url: `http://${host}:${address.port}`,
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return upstream;
}
