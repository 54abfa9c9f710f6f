// The floor of `npm run bench`: a bare node:http server that makes the same upstream GETs as the
// gateway does for each scenario, through one undici Pool, and answers their JSON. No GraphQL,
// no validation, no mapping: what any hop in front of the upstream costs at least.
import { createServer } from 'node:http';
import { destinations } from './rest-resolvers.mjs';
import { upstreamGetter } from './upstream-get.mjs';

const upstream = upstreamGetter(process.env.UPSTREAM_URL);
const get = upstream.get;

const configs = (p) => `/api/projects/${p}/pipeline_destination_configs/`;
const log = (p) => `/api/projects/${p}/activity_log/`;

async function combinedProject(p, auth) {
  const [project, list, activity, important] = await Promise.all([
    get(`/api/projects/${p}/`, auth),
    get(`${configs(p)}?limit=5&offset=0`, auth),
    get(log(p), auth),
    get(`${log(p)}important_changes/`, auth),
  ]);
  const perConfig = await Promise.all(
    list.results.map((c) => get(`${log(p)}?item_id=${c.id}&scope=PluginConfig`, auth)),
  );
  return {
    name: project.name,
    configs: list.results.map((c, i) => ({ ...c, activity: perConfig[i].results.slice(0, 2) })),
    activity: activity.results.slice(0, 5),
    important,
  };
}

const ROUTES = {
  '/one': (auth) => get(`${configs(1)}7/`, auth),
  '/hundred': (auth) => get(`${configs(1)}?limit=100&offset=0`, auth),
  '/combined': async (auth) => Promise.all([combinedProject(1, auth), combinedProject(2, auth)]),
  '/destinations': async (auth) => (await destinations((path) => get(path, auth), 1)).slice(0, 20),
  '/activity': async (auth) => {
    const page = await get(log(1), auth);
    const wanted = new Set(
      page.results
        .slice(0, 50)
        .filter((e) => e.scope === 'PluginConfig')
        .map((e) => e.item_id),
    );
    const list = wanted.size ? await get(`${configs(1)}?limit=100&offset=0`, auth) : { results: [] };
    const byId = new Map(list.results.map((c) => [String(c.id), c]));
    return page.results.slice(0, 50).map((e) => ({ ...e, config: byId.get(e.item_id) ?? null }));
  },
};

const server = createServer((req, res) => {
  const route = ROUTES[new URL(req.url, 'http://floor').pathname];
  req.resume();
  req.on('end', () => {
    if (!route) return res.writeHead(404).end();
    route(req.headers.authorization).then(
      (data) => {
        const body = JSON.stringify({ data });
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
          .end(body);
      },
      () => res.writeHead(502).end(),
    );
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => upstream.close().then(() => process.exit(0))));
