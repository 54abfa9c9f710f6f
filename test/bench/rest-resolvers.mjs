// The hand-written resolvers of the bench's bare yoga and Apollo servers: one upstream GET per
// field that needs the upstream, the JSON answer used as it comes; no loaders, limits, cursors,
// error mapping or logging. `getter(context)` gives the request's `get(path)`: an undici GET with
// the caller's key for bare yoga, a RESTDataSource for Apollo. Answers the bench's scenarios as
// the gateway does.
const b64 = (text) => Buffer.from(text).toString('base64');
const configsPath = (p) => `/api/projects/${p}/pipeline_destination_configs/`;
const logPath = (p) => `/api/projects/${p}/activity_log/`;
const connection = (items, extra = {}) => ({
  ...extra,
  edges: items.map((node, i) => ({ cursor: String(i), node })),
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
});
const withProject = (p) => (raw) => ({ ...raw, projectId: p });

export function restResolvers(getter) {
  const crossLink = async (e, _a, ctx) =>
    e.scope === 'PluginConfig'
      ? withProject(e.projectId)(await getter(ctx)(`${configsPath(e.projectId)}${e.item_id}/`))
      : null;
  return {
    Node: { __resolveType: (o) => o.__typename },
    Query: { project: (_r, { projectId }) => ({ projectId }) },
    Project: {
      id: (p) => b64(`Project:${p.projectId}`),
      name: async (p, _a, ctx) => (await getter(ctx)(`/api/projects/${p.projectId}/`)).name,
      destinationConfigs: async (p, { first }, ctx) => {
        const page = await getter(ctx)(`${configsPath(p.projectId)}?limit=${first ?? 20}&offset=0`);
        return connection(page.results.map(withProject(p.projectId)), { totalCount: page.count });
      },
      destinationConfig: async (p, { databaseId }, ctx) =>
        withProject(p.projectId)(await getter(ctx)(`${configsPath(p.projectId)}${databaseId}/`)),
      activityLog: async (p, { first, scope }, ctx) => {
        const page = await getter(ctx)(`${logPath(p.projectId)}${scope ? `?scope=${scope}` : ''}`);
        return connection(page.results.slice(0, first ?? 20).map(withProject(p.projectId)));
      },
      importantChanges: async (p, _a, ctx) => {
        const answer = await getter(ctx)(`${logPath(p.projectId)}important_changes/`);
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
        const page = await getter(ctx)(`${logPath(c.projectId)}?item_id=${c.id}&scope=PluginConfig`);
        return connection(page.results.slice(0, first ?? 20).map(withProject(c.projectId)));
      },
    },
    ActivityLogEntry: {
      itemId: (e) => e.item_id,
      createdAt: (e) => e.created_at,
      // An entry's config may be gone upstream: null, as the gateway answers.
      destinationConfig: (e, a, ctx) => crossLink(e, a, ctx).catch(() => null),
    },
    ActivityUser: { firstName: (u) => u.first_name, lastName: (u) => u.last_name },
  };
}
