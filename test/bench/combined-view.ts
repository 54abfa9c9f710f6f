// npm run bench: the combined view under load, with the reference upstream answering after a
// fixed latency (as a remote upstream would). Prints requests per second, latency percentiles
// and upstream requests per operation. A measurement, not a test: nothing here asserts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createGateway, createUpstreamClient, EXAMPLE_QUERY } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { startReferenceUpstream } from '../../src/reference-upstream/server.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const UPSTREAM_LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 20);

const upstream = await startReferenceUpstream({ latencyMs: UPSTREAM_LATENCY_MS });
const config = loadConfig({ UPSTREAM_URL: upstream.url, LOG_LEVEL: 'silent' });
const client = createUpstreamClient(config, upstream.url);
const server = createServer(createGateway(config, { client }));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

console.log(
  `combined view: ${CONNECTIONS} connections for ${DURATION_S}s, upstream latency ${UPSTREAM_LATENCY_MS}ms`,
);
const result = await autocannon({
  url,
  method: 'POST',
  connections: CONNECTIONS,
  duration: DURATION_S,
  headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
  body: JSON.stringify({ query: EXAMPLE_QUERY }),
});

const operations = result.requests.total;
console.log(`requests/s   ${result.requests.average.toFixed(1)}`);
console.log(`latency ms   p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}`);
console.log(`non-2xx      ${result.non2xx}  errors ${result.errors}  timeouts ${result.timeouts}`);
console.log(
  `upstream requests per operation  ${(upstream.requests.length / Math.max(1, operations)).toFixed(2)}`,
);

server.close();
await client.close();
await upstream.close();
