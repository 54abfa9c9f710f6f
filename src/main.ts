// The only file that reads process.env or listens. Without UPSTREAM_URL it starts the embedded
// reference upstream and points the gateway at it, so `npm start` works with no PostHog at hand.
import { createServer } from 'node:http';
import { createGateway, createUpstreamClient } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startReferenceUpstream } from './reference-upstream/server.ts';

// PostHog refuses its custom actions (important changes among them) to every scoped key, so
// the demo in the posthog dialect uses the unscoped legacy key.
const demoKeyFor = (dialect: string) => (dialect === 'posthog' ? 'phx_legacy' : 'phx_full');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`gateway: ${error.message}`);
  process.exit(1);
}

const reference = config.upstreamUrl
  ? null
  : await startReferenceUpstream({ dialect: config.referenceDialect, port: config.referencePort });
const upstreamOrigin = config.upstreamUrl ?? reference!.url;
const client = createUpstreamClient(config, upstreamOrigin);
const gateway = createGateway(config, {
  client,
  graphiqlDemoKey: reference ? demoKeyFor(config.referenceDialect) : null,
});
const server = createServer(gateway);

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = reference
    ? `the embedded reference upstream (${config.referenceDialect} dialect) at ${upstreamOrigin}; demo key ${demoKeyFor(config.referenceDialect)}`
    : upstreamOrigin;
  console.log(`gateway: GraphQL and GraphiQL at http://localhost:${port}/graphql, in front of ${where}`);
});

async function shutdown(signal: string) {
  console.log(`gateway: ${signal}, closing`);
  server.close();
  await client.close();
  await reference?.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
