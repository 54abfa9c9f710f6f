// An answer cut after its head came, in the middle of its body: over HTTP/1.1 the socket closes,
// over HTTP/2 the stream is reset or the session goes away and closes. A read is sent again and
// answers (nothing was applied, and the head alone is no answer), unless the head was an
// error's: a 429 cut so is the 429 it says, its Retry-After waited out; a write is never sent
// again, and its outcome is reported as unknown.

import type { IncomingMessage, Server } from 'node:http';
import { constants, type Http2SecureServer, type ServerHttp2Stream } from 'node:http2';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createUpstreamClient } from '../../src/gateway.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import { outcomeOf } from '../support/code-of.ts';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.ts';
import { callerOf, clientFor } from '../support/tls-client.ts';

const PROJECT_1 = '/api/projects/1/';
const CONFIG_2 = '/api/projects/1/pipeline_destination_configs/2/';
/** How long the upstream pauses in the middle of a body; the cut comes well before its end. */
const PAUSE_MS = 3_000;
const CUT_AFTER_MS = 100;

/** Each way of cutting: the upstream's server, and what it does to a call's answer mid-body. */
interface Cut {
  name: string;
  start(certificate: TestCertificate): Promise<ReferenceUpstream>;
  client(upstream: ReferenceUpstream, certificate: TestCertificate): UpstreamClient;
  /** Arms the cut for the next call the server is sent. */
  arm(upstream: ReferenceUpstream): void;
}

function armOnce<T>(
  emitter: { once(event: string, listener: (value: T) => void): unknown },
  event: string,
  cut: (value: T) => void,
) {
  emitter.once(event, (value: T) => setTimeout(() => cut(value), CUT_AFTER_MS));
}

const overTls = (certificate: TestCertificate) =>
  startReferenceUpstream({ tls: { key: certificate.key, cert: certificate.cert } });
const h2Client = (upstream: ReferenceUpstream, certificate: TestCertificate) =>
  clientFor(upstream, certificate.certFile);

const CUTS: Cut[] = [
  {
    name: 'HTTP/1.1, the socket closes',
    start: () => startReferenceUpstream(),
    client: (upstream) => createUpstreamClient(loadConfig({ UPSTREAM_URL: upstream.url }), upstream.url),
    arm: (upstream) =>
      armOnce<IncomingMessage>(upstream.server as Server, 'request', (req) => req.socket.destroy()),
  },
  {
    name: 'HTTP/2, the stream is reset',
    start: overTls,
    client: h2Client,
    arm: (upstream) =>
      armOnce<ServerHttp2Stream>(upstream.server as Http2SecureServer, 'stream', (stream) =>
        stream.close(constants.NGHTTP2_INTERNAL_ERROR),
      ),
  },
  {
    name: 'HTTP/2, the session goes away and closes',
    start: overTls,
    client: h2Client,
    arm: (upstream) =>
      armOnce<ServerHttp2Stream>(upstream.server as Http2SecureServer, 'stream', (stream) => {
        stream.session?.goaway(constants.NGHTTP2_NO_ERROR, 0);
        stream.session?.destroy();
      }),
  },
];

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

describe.each(CUTS)('an answer cut mid-body: $name', (cut) => {
  let upstream: ReferenceUpstream;
  let client: UpstreamClient;
  beforeAll(async () => {
    upstream = await cut.start(certificate);
  });
  afterAll(() => upstream.close());
  beforeEach(async () => {
    upstream.reset();
    client = cut.client(upstream, certificate);
    // Warm: the protocol is learnt and a connection is open before the cut is armed.
    await callerOf(client).request({ method: 'GET', path: PROJECT_1 });
    upstream.clearRequests();
  });
  afterEach(() => client.close());
  /** The next `method` of `path` answers slowly, and is cut in the middle of its body. */
  const cutNext = (path: string, method: string) => {
    upstream.faults.add({ path, method, action: { kind: 'slow-body', ms: PAUSE_MS }, times: 1 });
    cut.arm(upstream);
  };

  it('sends the read again, and answers', async () => {
    cutNext(PROJECT_1, 'GET');
    const answer = await callerOf(client).request({ method: 'GET', path: PROJECT_1 });
    expect(answer.status).toBe(200);
    expect((answer.body as { name: string }).name).toBeTruthy();
    expect(upstream.requests.filter((r) => r.method === 'GET' && r.path === PROJECT_1)).toHaveLength(2);
  });

  it('takes a 429 cut mid-body for the 429 its head says: not sent again within its Retry-After', async () => {
    // One call a minute: the next after this one is refused 429 with a Retry-After.
    upstream.throttle.perMinute = 1;
    try {
      await callerOf(client).request({ method: 'GET', path: PROJECT_1 });
      upstream.clearRequests();
      cutNext(PROJECT_1, 'GET');
      const read = callerOf(client).request({ method: 'GET', path: PROJECT_1 });
      expect(await outcomeOf(read)).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      expect(upstream.requests.filter((r) => r.method === 'GET' && r.path === PROJECT_1)).toHaveLength(1);
    } finally {
      upstream.throttle.perMinute = null;
    }
  });

  it('never sends the write again, and says its outcome is unknown', async () => {
    cutNext(CONFIG_2, 'PATCH');
    const write = callerOf(client).request({ method: 'PATCH', path: CONFIG_2, json: { name: 'renamed' } });
    expect(await outcomeOf(write)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', writeOutcome: 'unknown' });
    expect(upstream.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });
});
