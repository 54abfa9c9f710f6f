// The keyless probe of what the upstream routes (UpstreamClient.routes, asked once at start-up)
// reads a bounded start of the answer: an upstream that is not PostHog and answers the probe with
// an endless body is read no further than that, and the probe still says what it learnt.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createUpstreamClient } from '../../src/gateway.ts';

const CHUNK = Buffer.alloc(64 * 1024, 'x');

describe('the route probe against an upstream that answers without end', () => {
  let server: Server;
  let url: string;
  let written = 0;
  let closed: Promise<unknown>;
  beforeAll(async () => {
    server = createServer((req, res) => {
      closed = once(res, 'close');
      res.writeHead(req.url?.includes('advanced_activity_logs') ? 404 : 200, { 'content-type': 'text/html' });
      const pump = () => {
        while (!res.destroyed && res.write(CHUNK)) written += CHUNK.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('reads a bounded start of it, lets the connection go, and takes a 404 that is not PostHog’s as routed', async () => {
    const client = createUpstreamClient(loadConfig({ UPSTREAM_URL: url }), url);
    try {
      expect(await client.routes('/api/projects/@current/advanced_activity_logs/', 5_000)).toBe(true);
      await closed;
      // What the kernel's buffers took besides: far from the gigabytes of a body read to the end.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await client.close();
    }
  });
});
