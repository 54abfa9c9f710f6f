// /health answers while the process serves and never calls the upstream; /ready probes the
// upstream without a key, at most once per cache period however often it is polled, answers 503
// with a reason when the upstream is down and from the moment shutdown begins.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startGatewayServer, startHarness } from '../support/harness.ts';

describe('/health and /ready', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    base = h.url.replace('/graphql', '');
  });
  afterAll(() => h.close());

  it('/health: 200 with no upstream call and no key', async () => {
    h.reset();
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('/ready: 200 after one unauthenticated probe, shared by every poll within the cache period', async () => {
    h.reset();
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}/ready`)));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await answers[0].json()).toEqual({ status: 'ready', reason: 'upstream answers' });
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    const probes = h.upstreamCalls();
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatchObject({
      method: 'GET',
      path: '/api/projects/',
      authorization: undefined,
      status: 401,
    });
  });

  it('/ready: 503 as soon as shutdown begins', async () => {
    h.readiness.startDraining();
    const response = await fetch(`${base}/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not ready', reason: 'shutting down' });
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});

describe('/ready with the upstream down', () => {
  it('answers 503 with a short reason that names neither the upstream nor a key', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const gateway = await startGatewayServer(`http://127.0.0.1:${port}`);
    try {
      const base = gateway.url.replace('/graphql', '');
      const response = await fetch(`${base}/ready`);
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toEqual({ status: 'not ready', reason: 'upstream unreachable (ECONNREFUSED)' });
      expect(JSON.stringify(body)).not.toContain(String(port));
      expect((await fetch(`${base}/health`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
