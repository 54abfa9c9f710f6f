// HTTP/2 in trouble, in the middle of traffic: the server sends GOAWAY, or resets one stream.
// Reads are tried again and answer; a write is never sent twice, and its outcome is reported as
// unknown (as over HTTP/1.1). The per-key budget, the request deadline and the oldest-first order
// hold over HTTP/2 as they do over HTTP/1.1.
import { constants, type Http2SecureServer, type ServerHttp2Stream } from 'node:http2';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import { KeyBudget } from '../../src/upstream/keys/budget.ts';
import { RequestDeadline } from '../../src/upstream/request-signal.ts';
import { outcomeOf } from '../support/code-of.ts';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.ts';
import { callerOf, clientFor } from '../support/tls-client.ts';
import { until } from '../support/wait.ts';

const CONFIG_2 = '/api/projects/1/pipeline_destination_configs/2/';
const PROJECT_1 = '/api/projects/1/';
const PROJECT_2 = '/api/projects/2/';

interface SeenStream {
  method: string;
  path: string;
  key: string;
  stream: ServerHttp2Stream;
}

let certificate: TestCertificate;
let upstream: ReferenceUpstream;
/** Every stream the server was sent, in order; and the sessions it accepted. */
const streams: SeenStream[] = [];
let sessions = 0;
/** What the test does to each stream as it arrives. */
let onStream: (seen: SeenStream) => void = () => {};
let client: UpstreamClient;

beforeAll(async () => {
  certificate = makeTestCertificate();
  upstream = await startReferenceUpstream({
    tls: { key: certificate.key, cert: certificate.cert },
    latencyMs: 150,
  });
  const server = upstream.server as Http2SecureServer;
  server.on('session', () => sessions++);
  server.on('stream', (stream, headers) => {
    const seen = {
      method: String(headers[':method']),
      path: String(headers[':path']),
      key: String(headers.authorization),
      stream,
    };
    streams.push(seen);
    onStream(seen);
  });
});
afterAll(async () => {
  await upstream.close();
  certificate.remove();
});

/** A client that has learnt the upstream speaks h2 (one call made), with nothing seen yet. */
async function warmClient(env: Record<string, string> = {}, budget?: KeyBudget) {
  client = clientFor(upstream, certificate.certFile, env, budget);
  await callerOf(client).request({ method: 'GET', path: PROJECT_1 });
  expect(client.protocol).toBe('h2');
  streams.length = 0;
  sessions = 0;
}
beforeEach(() => {
  upstream.reset();
  onStream = () => {};
});
afterEach(() => client.close());

const seen = (method: string, path: string) => streams.filter((s) => s.method === method && s.path === path);

describe('a GOAWAY in the middle of traffic', () => {
  it('retries the reads on a new connection, and never sends the write again', async () => {
    await warmClient();
    const caller = callerOf(client);
    // The write among 40 reads on one connection: the call undici fails first is a read.
    onStream = () => {
      if (streams.length === 41) setTimeout(() => streams[0]!.stream.session?.goaway(), 20);
    };
    const read = (i: number) => caller.request({ method: 'GET', path: i % 2 ? PROJECT_1 : PROJECT_2 });
    const reads = Array.from({ length: 20 }, (_, i) => read(i));
    const write = outcomeOf(caller.request({ method: 'PATCH', path: CONFIG_2, json: { name: 'renamed' } }));
    reads.push(...Array.from({ length: 20 }, (_, i) => read(i)));

    expect((await Promise.all(reads)).map((r) => r.status)).toEqual(reads.map(() => 200));
    expect(await write).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', writeOutcome: 'unknown' });
    expect(seen('PATCH', CONFIG_2)).toHaveLength(1);
    // The reads went again, on new connections: a few (the retries came together, before the
    // first new one had said it speaks h2), at most as many as 256 calls in flight need.
    expect(sessions).toBeGreaterThanOrEqual(2);
    expect(sessions).toBeLessThanOrEqual(1 + 3);
    expect(streams.filter((s) => s.method === 'GET').length).toBeGreaterThan(40);
  });
});

describe('a stream reset in the middle of traffic', () => {
  it('retries a refused read, reports a cancelled write as unknown, and keeps the connection', async () => {
    await warmClient();
    const caller = callerOf(client);
    onStream = ({ method, path, stream }) => {
      const reset = (code: number) => setTimeout(() => stream.close(code), 20);
      if (method === 'GET' && path === PROJECT_2 && seen('GET', PROJECT_2).length === 1)
        reset(constants.NGHTTP2_REFUSED_STREAM);
      if (method === 'PATCH') reset(constants.NGHTTP2_CANCEL);
    };
    const reads = Array.from({ length: 20 }, () => caller.request({ method: 'GET', path: PROJECT_1 }));
    const refused = caller.request({ method: 'GET', path: PROJECT_2 });
    const write = outcomeOf(caller.request({ method: 'PATCH', path: CONFIG_2, json: { name: 'renamed' } }));

    expect((await Promise.all(reads)).every((r) => r.status === 200)).toBe(true);
    expect((await refused).status).toBe(200);
    expect(seen('GET', PROJECT_2)).toHaveLength(2);
    expect(await write).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', writeOutcome: 'unknown' });
    expect(seen('PATCH', CONFIG_2)).toHaveLength(1);
    expect(sessions).toBe(0);
  });
});

describe('over HTTP/2', () => {
  it("holds each key's budget: calls over it fail RATE_LIMITED unsent, another key's go", async () => {
    await warmClient({}, new KeyBudget({ perMinute: 5, perHour: 0 }));
    const caller = callerOf(client, 500);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => outcomeOf(caller.request({ method: 'GET', path: PROJECT_1 }))),
    );
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(4);
    expect(outcomes.filter((o) => (o as { code?: string }).code === 'RATE_LIMITED')).toHaveLength(4);
    // The warm-up call counted too: 5 of phx_full's, 4 of them here.
    expect(streams.filter((s) => s.key === 'Bearer phx_full')).toHaveLength(4);
    const other = await callerOf(client, 500, 'phx_legacy').request({ method: 'GET', path: PROJECT_1 });
    expect(other.status).toBe(200);
  });

  it('cuts a call at the request deadline without losing the connection, and does not retry it', async () => {
    await warmClient();
    upstream.faults.add({ path: PROJECT_2, method: 'GET', action: { kind: 'delay', ms: 2_000 } });
    upstream.faults.add({ path: CONFIG_2, method: 'PATCH', action: { kind: 'delay', ms: 2_000 } });
    const caller = callerOf(client, 300);
    setTimeout(() => caller.signal.abort(new RequestDeadline()), 300);
    const slow = outcomeOf(caller.request({ method: 'GET', path: PROJECT_2 }));
    const write = outcomeOf(caller.request({ method: 'PATCH', path: CONFIG_2, json: { name: 'late' } }));
    const quick = callerOf(client).request({ method: 'GET', path: PROJECT_1 });

    expect((await quick).status).toBe(200);
    expect(await slow).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(await write).toMatchObject({ code: 'UPSTREAM_TIMEOUT', writeOutcome: 'unknown' });
    expect(seen('GET', PROJECT_2)).toHaveLength(1);
    expect(seen('PATCH', CONFIG_2)).toHaveLength(1);
    // The cut streams were reset; the connection stayed for what came after.
    const after = await callerOf(client).request({ method: 'GET', path: PROJECT_1 });
    expect(after.status).toBe(200);
    expect(sessions).toBe(0);
  });

  it("serves an older operation's later call before a newer operation's earlier one", async () => {
    await warmClient({ UPSTREAM_MAX_IN_FLIGHT: '1' });
    upstream.faults.add({ path: CONFIG_2, method: 'GET', action: { kind: 'delay', ms: 300 }, times: 1 });
    const older = callerOf(client);
    const newer = callerOf(client);
    const holding = older.request({ method: 'GET', path: CONFIG_2 });
    await until(() => streams.length > 0, 'the older call upstream', { everyMs: 5 });
    const first = newer.request({ method: 'GET', path: PROJECT_2 });
    const later = older.request({ method: 'GET', path: PROJECT_1 });
    await Promise.all([holding, first, later]);
    expect(streams.map((s) => s.path)).toEqual([CONFIG_2, PROJECT_1, PROJECT_2]);
  });
});
