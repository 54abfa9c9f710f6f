// The reference upstream's /api: one request's way through it, as PostHog's middleware takes it
// (faults injected by a test, then the route, the key, the project and the scope, or in
// posthog-2026 PostHog's permission chain (permission-chain-2026.ts), then the throttle),
// logged in the request log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, endpointNotFound, methodNotAllowed, serverError } from './http/api-error.ts';
import { authenticate, requireCustomActionAccess, requireScope, resolveProject } from './http/auth.ts';
import { type ParsedBody, readBody } from './http/body.ts';
import { sleep, writeSlowly } from './http/faults.ts';
import type { ApiKey, Project } from './model.ts';
import { permit2026 } from './http/permission-chain-2026.ts';
import type { Reply } from './http/reply.ts';
import { type Operation, ROUTES, routes } from './routes.ts';
import { send } from './http/send.ts';
import type { RequestLogEntry, UpstreamState } from './state.ts';

const preciseNow = () => performance.timeOrigin + performance.now();

/** Answers a request under /api as the upstream would, faults and latency first. */
export async function handleApi(
  state: UpstreamState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
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
  // A test control (http/answer-headers.ts): merged into whatever answer goes out below.
  const added = state.faults.headers.for(entry.method, url.pathname);
  if (added) for (const [name, value] of Object.entries(added)) res.setHeader(name, value);
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
    reply = answer(state, req, url, body);
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

function answer(state: UpstreamState, req: IncomingMessage, url: URL, body: unknown): Reply {
  const method = req.method ?? 'GET';
  const match = ROUTES.map((r) => ({ route: r, m: r.pattern.exec(url.pathname) })).find((x) => x.m);
  if (!match || !routes(match.route, state.dialect, state.legacyRoutes)) throw endpointNotFound();
  const { store, dialect } = state;
  const params = match.m!.groups ?? {};
  let key: ApiKey | null;
  let project: Project | undefined;
  if (dialect === 'posthog-2026') {
    ({ key, project } = permit2026(store, match.route, method, params, req.headers.authorization));
  } else {
    key = authenticate(store, req.headers.authorization);
    project = match.route.projectScoped ? resolveProject(store, key, params.project!) : undefined;
  }
  const operation = match.route.methods[method];
  if (!operation) throw methodNotAllowed(method);
  if (dialect !== 'posthog-2026') checkScope(dialect, key!, operation);
  if (key) state.throttle.check(key.value);
  if (body instanceof Error) throw body;
  store.requestOrigin = requestOrigin(req);
  try {
    return answerWith(operation, state, key ?? ANONYMOUS, project, params, body as ParsedBody, req, url);
  } finally {
    store.requestOrigin = null;
  }
}

/** The key an anonymous request's handler is given: the public catalog's handlers read none. */
const ANONYMOUS: ApiKey = { value: '', userId: 0, scopes: [], currentProjectId: 1 };

function checkScope(dialect: UpstreamState['dialect'], key: ApiKey, operation: Operation): void {
  if (operation.custom) requireCustomActionAccess(dialect, key, operation.scope);
  else requireScope(key, operation.scope);
}

/**
 * What an entry made by this request records (posthog/models/activity_logging/activity_log.py@7c88b78:
 * `client`, "usually the self-reported x-posthog-client request header", null without one;
 * `credential_type`, the credential that authenticated it: every key here is a personal API key).
 */
function requestOrigin(req: IncomingMessage) {
  const header = req.headers['x-posthog-client'];
  const client = typeof header === 'string' && header.trim() !== '' ? header.trim() : null;
  return { client, credentialType: 'personal_api_key' };
}

function answerWith(
  operation: NonNullable<(typeof ROUTES)[number]['methods'][string]>,
  { store, dialect, publicBase }: UpstreamState,
  key: ReturnType<typeof authenticate>,
  project: ReturnType<typeof resolveProject> | undefined,
  params: Record<string, string>,
  body: ParsedBody,
  req: IncomingMessage,
  url: URL,
): Reply {
  return operation.handle({
    store,
    dialect,
    key,
    // The listing is not project-scoped; its handler never reads `project`.
    project: project ?? store.projects.get(key.currentProjectId)!,
    params,
    body,
    url: {
      origin: publicBase ?? `http://${req.headers.host ?? 'localhost'}`,
      path: url.pathname,
      query: url.searchParams,
    },
  });
}

function defaultFaultBody(status: number) {
  if (status >= 500) return serverError().body();
  return { type: 'invalid_request', code: 'error', detail: `Injected fault ${status}.`, attr: null };
}
