// What an upstream call holds while it is in flight (src/upstream/exchange.ts): one Exchange,
// not undici's `request()` machinery (its handler, an async resource, and a body stream with its
// listeners once the head comes), over HTTP/1.1 and over HTTP/2 alike. Each call's objects live as
// long as the call, and what lives across a young-generation GC is what a short upstream call
// costs above a hand-written resolver (docs/performance.md). The answers are the same.

import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Exchange } from '../../../src/upstream/exchange.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { holdRequests } from '../../support/hold-requests.ts';
import { makeTestCertificate, type TestCertificate } from '../../support/test-certificate.ts';
import { callerOf, clientFor } from '../../support/tls-client.ts';
import { until } from '../../support/wait.ts';

const load = createRequire(import.meta.url);
const { RequestHandler } = load('undici/lib/api/api-request.js') as { RequestHandler: new () => unknown };
const { Readable: BodyReadable } = load('undici/lib/api/readable.js') as { Readable: new () => unknown };

/** Live objects of the class (after a full garbage collection). */
const live = (kind: abstract new (...args: never[]) => unknown) =>
  v8.queryObjects(kind as never, { format: 'count' }) as number;

/** Live calls of either kind (an Exchange, or undici's request handler), above `before`. */
function counter() {
  const before = { exchanges: live(Exchange), handlers: live(RequestHandler), bodies: live(BodyReadable) };
  return {
    inFlight: () => live(Exchange) - before.exchanges + (live(RequestHandler) - before.handlers),
    handlers: () => live(RequestHandler) - before.handlers,
    bodies: () => live(BodyReadable) - before.bodies,
    exchanges: () => live(Exchange) - before.exchanges,
  };
}

/** Every config of the page with its activity: 2 pages, then 10 activity pages, in flight together. */
const VIEW = `{ p1: project(projectId: "1") { destinationConfigs(first: 5) { edges { node { name
    activity(first: 2) { edges { node { activity } } } } } } }
  p2: project(projectId: "2") { destinationConfigs(first: 5) { edges { node { name
    activity(first: 2) { edges { node { activity } } } } } } } }`;

describe('an upstream call in flight', { timeout: 60_000 }, () => {
  let h: Harness;
  let certificate: TestCertificate;
  let tlsUpstream: ReferenceUpstream;
  beforeAll(async () => {
    h = await startHarness({ env: { LOG_LEVEL: 'silent' } });
    certificate = makeTestCertificate();
    tlsUpstream = await startReferenceUpstream({ tls: { key: certificate.key, cert: certificate.cert } });
  });
  afterAll(async () => {
    await h.close();
    await tlsUpstream.close();
    certificate.remove();
  });

  it('over HTTP/1.1 is one Exchange: no undici request handler or body stream, and the view is answered', async () => {
    const expected = await h.gql(VIEW);
    expect(expected.body.errors).toBeUndefined();
    const count = counter();
    // The ten activity calls, held upstream: each in flight until released.
    const upstream = holdRequests(h.upstream, (path) => path.includes('activity'));
    const answer = h.gql(VIEW);
    await until(() => upstream.held() === 10, 'the ten activity calls upstream', { withinMs: 45_000 });
    expect(count.exchanges()).toBe(10);
    expect(count.handlers()).toBe(0);
    expect(count.bodies()).toBe(0);
    upstream.release();
    const { body } = await answer;
    expect(body).toEqual(expected.body);
    expect(count.exchanges()).toBe(0);
  });

  it('over HTTP/2 is one Exchange too', async () => {
    const client = clientFor(tlsUpstream, certificate.certFile);
    const caller = callerOf(client, 60_000);
    // The first call learns the protocol (the calls after it share one connection).
    await caller.request({ method: 'GET', path: '/api/projects/1/' });
    expect(client.protocol).toBe('h2');
    const count = counter();
    const upstream = holdRequests(tlsUpstream);
    const paths = Array.from({ length: 20 }, (_, i) => `/api/projects/${1 + (i % 2)}/`);
    const answers = Promise.all(paths.map((path) => caller.request({ method: 'GET', path })));
    await until(() => upstream.held() === 20, 'the twenty calls upstream', { withinMs: 45_000 });
    // One Exchange each (the first call's may still be held by its session: counted whole).
    expect(live(Exchange)).toBeGreaterThanOrEqual(20);
    expect(count.handlers()).toBe(0);
    expect(count.bodies()).toBe(0);
    upstream.release();
    const results = await answers;
    expect(results.map((r) => (r.body as { id: number }).id)).toEqual(paths.map((_, i) => 1 + (i % 2)));
    await client.close();
  });
});
