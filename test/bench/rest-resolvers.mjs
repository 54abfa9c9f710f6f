// The hand-written resolvers of the bench's bare yoga and Apollo servers: one upstream GET per
// field that needs the upstream, the JSON answer used as it comes; no loaders, limits, cursors,
// error mapping or logging. `getter(context)` gives the request's `get(path)`: an undici GET with
// the caller's key for bare yoga, a RESTDataSource for Apollo. Answers the bench's scenarios as
// the gateway does, with the same upstream GETs.
const b64 = (text) => Buffer.from(text).toString('base64');
const configsPath = (p) => `/api/projects/${p}/pipeline_destination_configs/`;
const logPath = (p) => `/api/projects/${p}/activity_log/`;
const hogFunctionsPath = (p) => `/api/projects/${p}/hog_functions/`;
const DESTINATION_TYPES = 'destination,site_destination,legacy_destination';
/** Every page of a list of 100s: the first says how many follow. */
async function everyPage(get, path) {
  const first = await get(`${path}?limit=100&offset=0`);
  const rest = await Promise.all(
    Array.from({ length: Math.ceil(first.count / 100) - 1 }, (_, i) =>
      get(`${path}?limit=100&offset=${(i + 1) * 100}`),
    ),
  );
  return [first, ...rest].flatMap((page) => page.results);
}
/**
 * A project's destinations as the gateway defines them: its destination hog functions, then the
 * plugin configs no enabled legacy_destination stands for (one retrieve per plugin says its URL),
 * then its batch exports but for PostHog's internal Workflows ones.
 */
export async function destinations(get, p) {
  const [functions, configs, exports] = await Promise.all([
    get(`${hogFunctionsPath(p)}?limit=100&offset=0&full=true&type=${encodeURIComponent(DESTINATION_TYPES)}`),
    everyPage(get, configsPath(p)),
    everyPage(get, `/api/projects/${p}/batch_exports/`),
  ]);
  const superseding = new Set(
    functions.results.filter((f) => f.type === 'legacy_destination' && f.enabled).map((f) => f.template?.id),
  );
  const firstOfPlugin = new Map();
  for (const c of configs) if (!firstOfPlugin.has(c.plugin)) firstOfPlugin.set(c.plugin, c.id);
  const templates = new Map(
    await Promise.all(
      [...firstOfPlugin].map(async ([plugin, id]) => {
        const { plugin_info } = await get(`${configsPath(p)}${id}/`);
        return [
          plugin,
          `plugin-${String(plugin_info?.url ?? '')
            .split('/')
            .pop()}`,
        ];
      }),
    ),
  );
  return [
    ...functions.results.map((f) => Object.assign(f, { __typename: 'HogFunction', projectId: p })),
    ...configs
      .filter((c) => !superseding.has(templates.get(c.plugin)))
      .map((c) => Object.assign(c, { __typename: 'DestinationConfig', projectId: p })),
    ...exports
      .filter((e) => e.destination?.type !== 'Workflows')
      .map((e) => Object.assign(e, { __typename: 'BatchExport', projectId: p })),
  ];
}
// As lean as a hand-written server would be: the upstream's objects handed through as parsed
// (the project they came from set on them, for their ids), edges with only the node (no scenario
// reads a cursor).
const connection = (items, extra = {}) => ({
  ...extra,
  edges: items.map((node) => ({ node })),
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
});
const withProject = (p) => (raw) => {
  raw.projectId = p;
  return raw;
};

export function restResolvers(getter) {
  const crossLink = async (e, _a, ctx) =>
    e.scope === 'PluginConfig'
      ? withProject(e.projectId)(await getter(ctx)(`${configsPath(e.projectId)}${e.item_id}/`))
      : null;
  return {
    Node: { __resolveType: (o) => o.__typename },
    Destination: { __resolveType: (o) => o.__typename },
    Query: { project: (_r, { projectId }) => ({ projectId }) },
    Project: {
      id: (p) => b64(`Project:${p.projectId}`),
      name: async (p, _a, ctx) => (await getter(ctx)(`/api/projects/${p.projectId}/`)).name,
      destinationConfigs: async (p, { first }, ctx) => {
        const page = await getter(ctx)(`${configsPath(p.projectId)}?limit=${first ?? 20}&offset=0`);
        return connection(page.results.map(withProject(p.projectId)), { totalCount: page.count });
      },
      destinations: async (p, { first }, ctx) => {
        const all = await destinations(getter(ctx), p.projectId);
        return connection(all.slice(0, first ?? 20), { totalCount: all.length });
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
    HogFunction: { id: (f) => b64(`HogFunction:${f.projectId}:${f.id}`) },
    BatchExport: {
      id: (e) => b64(`BatchExport:${e.projectId}:${e.id}`),
      enabled: (e) => !e.paused,
      destinationType: (e) => e.destination.type,
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
