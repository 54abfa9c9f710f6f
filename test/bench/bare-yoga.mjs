// The bare yoga server of `npm run bench`: what the stack itself costs. graphql-yoga with
// graphql-jit over the same schema (schema.graphql) and the hand-written resolvers of
// rest-resolvers.mjs, each upstream GET through a keep-alive undici Pool.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createSchema, createYoga } from 'graphql-yoga';
import { restResolvers } from './rest-resolvers.mjs';
import { upstreamGetter } from './upstream-get.mjs';

const upstream = upstreamGetter(process.env.UPSTREAM_URL);
const resolvers = restResolvers((ctx) => (path) => upstream.get(path, ctx.auth));

const typeDefs = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers }),
  context: ({ request }) => ({ auth: request.headers.get('authorization') }),
  plugins: [useGraphQlJit()],
  logging: false,
  graphiql: false,
  landingPage: false,
});
const server = createServer(yoga);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/graphql`);
});
process.on('SIGTERM', () => server.close(() => upstream.close().then(() => process.exit(0))));
