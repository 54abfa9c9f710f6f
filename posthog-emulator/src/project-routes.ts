// The projects a key can see: the listing and one project.
import { serializeProject } from './dialect.ts';
import { limitOffsetPage } from './http/pagination.ts';
import { ok, type Reply, type RouteContext } from './http/reply.ts';

export function listProjects({ store, key, url }: RouteContext): Reply {
  const user = store.users.get(key.userId)!;
  const visible = [...store.projects.values()].filter((p) => user.organizationIds.includes(p.organizationId));
  const page = limitOffsetPage(visible, url);
  return ok({ ...page, results: page.results.map((p) => serializeProject(store, p)) });
}

export function getProject({ store, project }: RouteContext): Reply {
  return ok(serializeProject(store, project));
}
