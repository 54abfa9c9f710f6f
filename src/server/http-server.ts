// The gateway's HTTP server, with the limits that keep a caller from holding its connections: a
// request (headers and body) must arrive within REQUEST_TIMEOUT_MS, its headers within
// HEADERS_TIMEOUT_MS, and no more than MAX_CONNECTIONS sockets are open at once, so a body
// trickled a byte at a time holds a connection no longer than the timeout. Answers are not
// limited: an SSE stream or a live query may run as long as it runs.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config/index.ts';

/** How often node checks the two timeouts (its default would let a trickle run far past them). */
const TIMEOUT_CHECK_MS = 1_000;

export function createHttpServer(handler: RequestListener, config: Readonly<Config>): Server {
  const server = createServer(
    {
      requestTimeout: config.server.requestTimeoutMs,
      headersTimeout: config.server.headersTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    handler,
  );
  server.maxConnections = config.server.maxConnections;
  return server;
}
