// Apollo Server 5 with RESTDataSource, as its documentation sets it up: one data source per
// GraphQL request, made in the context function with the caller's key, which it adds to every
// upstream GET (willSendRequest) and whose GETs it deduplicates for the request's lifetime.
// The same schema (schema.graphql) and resolvers (../rest-resolvers.mjs) as the bare yoga server.
import { readFileSync } from 'node:fs';
import { RESTDataSource } from '@apollo/datasource-rest';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { restResolvers } from '../rest-resolvers.mjs';

class PostHogAPI extends RESTDataSource {
  constructor(authorization) {
    super();
    this.baseURL = process.env.UPSTREAM_URL;
    this.authorization = authorization;
  }

  willSendRequest(_path, request) {
    if (this.authorization) request.headers.authorization = this.authorization;
  }
}

const typeDefs = readFileSync(new URL('../../../schema.graphql', import.meta.url), 'utf8');
const server = new ApolloServer({
  typeDefs,
  resolvers: restResolvers((ctx) => (path) => ctx.api.get(path)),
});
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' },
  context: async ({ req }) => ({ api: new PostHogAPI(req.headers.authorization) }),
});
console.log(`listening on ${url}graphql`);
process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
