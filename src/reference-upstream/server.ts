// The embedded reference upstream: a plain node:http server that answers the REST interface as
// either dialect. It shares no code with the gateway, which only ever reaches it over HTTP.
//
// Everything under /api is the interface; everything under /__control drives the server from
// a test in another process (faults, latency, rate limit, the request log, a data reset).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, endpointNotFound, methodNotAllowed, serverError } from './api-error.ts';
import { authenticate, requireCustomActionAccess, requireScope, resolveProject } from './auth.ts';
import { type ParsedBody, readBody } from './body.ts';
import type { Dialect } from './dialect.ts';
import { DIALECTS } from './dialect.ts';
import { type FaultRule, Faults, sleep, writeSlowly } from './faults.ts';
import { type Reply, ROUTES } from './routes.ts';
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
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** The Authorization header exactly as received. */
  authorization: string | undefined;
  /** The `x-request-id` and W3C `traceparent` headers as received (how a call is followed end to end). */
  requestId: string | undefined;
  traceparent: string | undefined;
  /** null when the connection was reset instead of answered. */
  status: number | null;
  /** The body as the upstream parsed it (form fields as strings); null when empty or unreadable. */
  body: Record<string, unknown> | null;
  /** Epoch milliseconds, sub-millisecond precision: when the request arrived and was answered. */
  start: number;
  end: number;
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

const preciseNow = () => performance.timeOrigin + performance.now();

export async function startReferenceUpstream(
  options: ReferenceUpstreamOptions = {},
): Promise<ReferenceUpstream> {
  const dialect = options.dialect ?? 'spec';
  if (!DIALECTS.includes(dialect)) throw new TypeError(`unknown dialect ${JSON.stringify(dialect)}`);
  const state = {
    store: new Store(),
    requests: [] as RequestLogEntry[],
    faults: new Faults(),
    throttle: new Throttle(options.rateLimitPerMinute ?? null),
  };
  state.faults.latency = { latencyMs: options.latencyMs ?? 0, jitterMs: options.jitterMs ?? 0 };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const handler = url.pathname.startsWith('/__control/') ? handleControl : handleApi;
    handler(req, res, url).catch((error: unknown) => {
      console.error('reference upstream: unexpected error', error);
      if (!res.headersSent) send(res, { status: 500, json: serverError().body() });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const entry: RequestLogEntry = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search.slice(1),
      authorization: req.headers.authorization,
      requestId: req.headers['x-request-id'] as string | undefined,
      traceparent: req.headers.traceparent as string | undefined,
      status: null,
      body: null,
      start: preciseNow(),
      end: 0,
    };
    state.requests.push(entry);
    res.on('close', () => {
      entry.end = preciseNow();
      entry.status = res.writableFinished ? res.statusCode : null;
    });
    const body = await readBody(req).catch((error: unknown) => error);
    if (!(body instanceof Error) && (body as ParsedBody).kind !== 'none')
      entry.body = (body as ParsedBody).data;
    const delay = state.faults.delayMs();
    if (delay > 0) await sleep(delay);

    const fault = state.faults.take(entry.method, url.pathname);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') {
      send(res, {
        status: fault.status,
        json: fault.body ?? defaultFaultBody(fault.status),
        headers: fault.headers,
      });
      return;
    }
    if (fault?.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [{"id": 1,');
      return;
    }
    if (fault?.kind === 'delay') await sleep(fault.ms);

    let reply: Reply & { headers?: Record<string, string> };
    try {
      reply = answer(req, url, body, options.publicBase);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply = { status: error.status, json: error.body(), headers: error.headers };
    }
    if (fault?.kind === 'slow-body') {
      const payload = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      if (payload === '') {
        // No body to send slowly (a 204): hold the answer back instead, so that the headers do
        // not go out alone and leave the connection busy behind them.
        await sleep(fault.ms);
      } else {
        res.writeHead(reply.status, {
          'content-type': reply.contentType ?? 'application/json',
          ...reply.headers,
        });
        await writeSlowly(res, payload, fault.ms);
        return;
      }
    }
    send(res, reply);
  }

  function answer(req: IncomingMessage, url: URL, body: unknown, publicBase: string | undefined): Reply {
    const method = req.method ?? 'GET';
    const match = ROUTES.map((r) => ({ route: r, m: r.pattern.exec(url.pathname) })).find((x) => x.m);
    if (!match) throw endpointNotFound();
    const { store } = state;
    const key = authenticate(store, req.headers.authorization);
    const params = match.m!.groups ?? {};
    const project = match.route.projectScoped ? resolveProject(store, key, params.project!) : undefined;
    const operation = match.route.methods[method];
    if (!operation) throw methodNotAllowed(method);
    if (operation.custom) requireCustomActionAccess(dialect, key, operation.scope);
    else requireScope(key, operation.scope);
    state.throttle.check(key.value);
    if (body instanceof Error) throw body;
    return operation.handle({
      store,
      dialect,
      key,
      // The listing is not project-scoped; its handler never reads `project`.
      project: project ?? store.projects.get(key.currentProjectId)!,
      params,
      body: body as ParsedBody,
      url: {
        origin: publicBase ?? `http://${req.headers.host ?? 'localhost'}`,
        path: url.pathname,
        query: url.searchParams,
      },
    });
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const parsed = await readBody(req).catch(() => ({ kind: 'none', data: {} }) as ParsedBody);
    const data = parsed.data as Record<string, unknown>;
    const route = `${req.method} ${url.pathname.replace(/\/$/, '')}`;
    switch (route) {
      case 'GET /__control/requests':
        return send(res, { status: 200, json: state.requests });
      case 'DELETE /__control/requests':
        state.requests.length = 0;
        return send(res, { status: 204 });
      case 'GET /__control/faults':
        return send(res, { status: 200, json: state.faults.list() });
      case 'POST /__control/faults':
        try {
          return send(res, { status: 201, json: { id: state.faults.add(data as unknown as FaultRule) } });
        } catch (error) {
          return send(res, { status: 400, json: { detail: (error as Error).message } });
        }
      case 'DELETE /__control/faults':
        state.faults.clear();
        return send(res, { status: 204 });
      case 'PUT /__control/latency':
        state.faults.latency = {
          latencyMs: Number(data.latencyMs ?? 0),
          jitterMs: Number(data.jitterMs ?? 0),
        };
        return send(res, { status: 200, json: state.faults.latency });
      case 'PUT /__control/rate-limit':
        state.throttle.perMinute = data.perMinute == null ? null : Number(data.perMinute);
        state.throttle.reset();
        return send(res, { status: 200, json: { perMinute: state.throttle.perMinute } });
      case 'POST /__control/reset':
        upstream.reset();
        return send(res, { status: 204 });
      default:
        return send(res, { status: 404, json: { detail: 'unknown control route' } });
    }
  }

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
      state.store = new Store();
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

function defaultFaultBody(status: number) {
  if (status >= 500) return serverError().body();
  return { type: 'invalid_request', code: 'error', detail: `Injected fault ${status}.`, attr: null };
}

function send(res: ServerResponse, reply: Reply & { headers?: Record<string, string> }): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined;
  if (reply.text !== undefined) {
    headers['content-type'] = reply.contentType ?? 'text/plain';
    payload = reply.text;
  } else if (reply.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(reply.json);
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers).end(payload);
}
