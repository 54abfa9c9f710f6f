// HTTP/2 to an upstream that offers it over TLS (src/upstream/connections.ts): many calls share one
// connection, and HTTP/1.1 stays for a TLS upstream that does not offer it. The reference upstream
// is served over TLS with a certificate made for the test, which the gateway trusts through
// UPSTREAM_CA_FILE, as an operator of a self-hosted PostHog behind a private CA would.
import type { Http2SecureServer } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createUpstreamClient } from '../../src/gateway.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.ts';
import { callerOf, clientFor, peakInFlight } from '../support/tls-client.ts';
import { settle, until } from '../support/wait.ts';

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

/** Matches every URL but the first: a new client sends its first call alone. */
function afterTheFirst() {
  let first = true;
  return () => {
    if (!first) return true;
    first = false;
    return false;
  };
}

describe('an upstream that offers HTTP/2 over TLS', () => {
  let upstream: ReferenceUpstream;
  let sessions = 0;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({
      tls: { key: certificate.key, cert: certificate.cert },
      latencyMs: 100,
    });
    (upstream.server as Http2SecureServer).on('session', () => sessions++);
  });
  afterAll(() => upstream.close());

  it('carries many calls at once over one connection', async () => {
    sessions = 0;
    upstream.clearRequests();
    const client = clientFor(upstream, certificate.certFile);
    expect(client.protocol).toBeNull();
    const caller = callerOf(client, 60_000);
    // Held upstream (but the first, which the client sends alone) until the other 89 are there:
    // in flight together, not one after another.
    const held = holdRequests(upstream, afterTheFirst());
    const paths = Array.from({ length: 90 }, (_, i) => `/api/projects/${1 + (i % 2)}/`);
    const pending = Promise.all(paths.map((path) => caller.request({ method: 'GET', path })));
    await until(() => held.held() === 89, 'the 89 calls upstream at once', { withinMs: 30_000 });
    held.release();
    const answers = await pending;

    expect(answers.map((a) => a.status)).toEqual(paths.map(() => 200));
    expect(client.protocol).toBe('h2');
    expect(sessions).toBe(1);
    expect(upstream.requests).toHaveLength(90);
    await client.close();
  });

  it('opens a few connections for hundreds of calls, each carrying up to 100 streams', async () => {
    sessions = 0;
    upstream.clearRequests();
    const client = clientFor(upstream, certificate.certFile);
    const caller = callerOf(client);
    const answers = await Promise.all(
      Array.from({ length: 256 }, () => caller.request({ method: 'GET', path: '/api/projects/1/' })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // UPSTREAM_MAX_IN_FLIGHT (256) over 100 streams a connection.
    expect(sessions).toBeLessThanOrEqual(3);
    await client.close();
  });

  it('keeps the calls in flight within UPSTREAM_MAX_IN_FLIGHT', async () => {
    sessions = 0;
    upstream.clearRequests();
    const client = clientFor(upstream, certificate.certFile, { UPSTREAM_MAX_IN_FLIGHT: '7' });
    const caller = callerOf(client, 60_000);
    // Held upstream (but the first) until seven are there: the client sends no eighth meanwhile.
    const held = holdRequests(upstream, afterTheFirst());
    const pending = Promise.all(
      Array.from({ length: 30 }, () => caller.request({ method: 'GET', path: '/api/projects/1/' })),
    );
    await until(() => held.held() >= 7, 'seven calls upstream at once', { withinMs: 30_000 });
    await settle(200);
    expect(held.held()).toBe(7);
    held.release();
    await pending;
    expect(sessions).toBe(1);
    expect(peakInFlight(upstream)).toBeLessThanOrEqual(7);
    await client.close();
  });

  it('answers GraphQL through the gateway over HTTP/2 (UPSTREAM_CA_FILE)', async () => {
    let h: Harness | undefined;
    try {
      h = await startHarness({
        upstream: { tls: { key: certificate.key, cert: certificate.cert } },
        env: { UPSTREAM_CA_FILE: certificate.certFile },
      });
      let streams = 0;
      (h.upstream.server as Http2SecureServer).on('stream', () => streams++);
      const fields = Array.from(
        { length: 12 },
        (_, i) => `c${i}: destinationConfig(databaseId: ${i + 1}) { name }`,
      );
      const { body } = await h.gql(`{ project(projectId: "1") { name ${fields.join(' ')} } }`);
      expect(body.errors).toBeUndefined();
      expect(body.data.project.name).toBe('Hedgebox (production)');
      expect(streams).toBe(h.upstreamCalls().length);
    } finally {
      await h?.close();
    }
  });

  it('does not connect to it without trusting its certificate', async () => {
    const client = createUpstreamClient(loadConfig({ UPSTREAM_URL: upstream.url }), upstream.url);
    const error = await callerOf(client)
      .request({ method: 'GET', path: '/api/projects/1/' })
      .catch((e) => e);
    expect(error.extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    await client.close();
  });
});

describe('a TLS upstream without HTTP/2', () => {
  let upstream: ReferenceUpstream;
  const protocols: (string | false | null)[] = [];
  /** The most requests one connection had in flight at once. */
  let perConnection = 0;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({
      tls: { key: certificate.key, cert: certificate.cert, http2: false },
      latencyMs: 50,
    });
    const server = upstream.server as HttpsServer;
    server.on('secureConnection', (socket: TLSSocket) => {
      protocols.push(socket.alpnProtocol);
    });
    const open = new Map<unknown, number>();
    server.on('request', (req, res) => {
      const now = (open.get(req.socket) ?? 0) + 1;
      open.set(req.socket, now);
      perConnection = Math.max(perConnection, now);
      res.once('close', () => open.set(req.socket, open.get(req.socket)! - 1));
    });
  });
  afterAll(() => upstream.close());

  it('is spoken to over HTTP/1.1, one call per connection', async () => {
    const client = clientFor(upstream, certificate.certFile);
    const caller = callerOf(client);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => caller.request({ method: 'GET', path: '/api/projects/1/' })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(client.protocol).toBe('http/1.1');
    expect(protocols.every((p) => p === 'http/1.1')).toBe(true);
    // Not pipelined: one call at a time on a connection, the others on connections of their own.
    expect(perConnection).toBe(1);
    expect(protocols.length).toBeGreaterThan(1);
    await client.close();
  });

  it('and over HTTP/1.1 to one that offers HTTP/2 when UPSTREAM_HTTP2=false', async () => {
    const offering = await startReferenceUpstream({ tls: { key: certificate.key, cert: certificate.cert } });
    let sessions = 0;
    (offering.server as Http2SecureServer).on('session', () => sessions++);
    const client = clientFor(offering, certificate.certFile, { UPSTREAM_HTTP2: 'false' });
    const answer = await callerOf(client).request({ method: 'GET', path: '/api/projects/1/' });
    expect(answer.status).toBe(200);
    expect(client.protocol).toBe('http/1.1');
    expect(sessions).toBe(0);
    await client.close();
    await offering.close();
  });
});
