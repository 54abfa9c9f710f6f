// The bare yoga server of `npm run bench`: what the stack itself costs. graphql-yoga with
// graphql-jit over the same schema (schema.graphql), hand-written resolvers that make one undici
// request per field that needs the upstream and JSON.parse the answer: no loaders, limits,
// cursors, error mapping or logging. Answers the bench's scenarios as the gateway does.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createSchema, createYoga } from 'graphql-yoga';
import { upstreamGetter } from './upstream-get.mjs';

const upstream = upstreamGetter(process.env.UPSTREAM_URL);
const get = upstream.get;

const b64 = (text) => Buffer.from(text).toString('base64');
const configsPath = (p) => `/api/projects/${p}/pipeline_destination_configs/`;
const logPath = (p) => `/api/projects/${p}/activity_log/`;
const connection = (items, extra = {}) => ({
  ...extra,
  edges: items.map((node, i) => ({ cursor: String(i), node })),
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
});
const withProject = (p) => (raw) => ({ ...raw, projectId: p });

const resolvers = {
  Node: { __resolveType: (o) => o.__typename },
  Query: { project: (_r, { projectId }) => ({ projectId }) },
  Project: {
    id: (p) => b64(`Project:${p.projectId}`),
    name: async (p, _a, ctx) => (await get(`/api/projects/${p.projectId}/`, ctx.auth)).name,
    destinationConfigs: async (p, { first }, ctx) => {
      const page = await get(`${configsPath(p.projectId)}?limit=${first ?? 20}&offset=0`, ctx.auth);
      return connection(page.results.map(withProject(p.projectId)), { totalCount: page.count });
    },
    destinationConfig: async (p, { databaseId }, ctx) =>
      withProject(p.projectId)(await get(`${configsPath(p.projectId)}${databaseId}/`, ctx.auth)),
    activityLog: async (p, { first, scope }, ctx) => {
      const page = await get(`${logPath(p.projectId)}${scope ? `?scope=${scope}` : ''}`, ctx.auth);
      return connection(page.results.slice(0, first ?? 20).map(withProject(p.projectId)));
    },
    importantChanges: async (p, _a, ctx) => {
      const answer = await get(`${logPath(p.projectId)}important_changes/`, ctx.auth);
      return {
        entries: Array.isArray(answer) ? answer : (answer.results ?? [answer]),
        lastRead: answer.last_read ?? null,
      };
    },
  },
  DestinationConfig: {
    id: (c) => b64(`DestinationConfig:${c.projectId}:${c.id}`),
    databaseId: (c) => c.id,
    deliveryRate24h: (c) => (c.delivery_rate_24h == null ? null : Number(c.delivery_rate_24h)),
    activity: async (c, { first }, ctx) => {
      const page = await get(`${logPath(c.projectId)}?item_id=${c.id}&scope=PluginConfig`, ctx.auth);
      return connection(page.results.slice(0, first ?? 20).map(withProject(c.projectId)));
    },
  },
  ActivityLogEntry: {
    itemId: (e) => e.item_id,
    createdAt: (e) => e.created_at,
    destinationConfig: async (e, _a, ctx) =>
      e.scope === 'PluginConfig'
        ? withProject(e.projectId)(await get(`${configsPath(e.projectId)}${e.item_id}/`, ctx.auth))
        : null,
  },
  ActivityUser: { firstName: (u) => u.first_name, lastName: (u) => u.last_name },
};

// An entry's config may be gone upstream: null, as the gateway answers.
const crossLink = resolvers.ActivityLogEntry.destinationConfig;
resolvers.ActivityLogEntry.destinationConfig = (e, a, ctx) => crossLink(e, a, ctx).catch(() => null);

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
