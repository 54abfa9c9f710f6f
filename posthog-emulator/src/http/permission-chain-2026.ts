// A request's checks in the posthog-2026 dialect, in the order PostHog's permission chain makes
// them (posthog/api/routing.py@00f00ca, get_permissions: IsAuthenticated, APIScopePermission,
// AccessControlPermission, then TeamMemberAccessPermission; DRF runs them all before it looks for
// the method's handler). APIScopePermission (posthog/permissions.py@001027c) refuses an action in
// no scope list first (a method the view lacks has no action), then resolves the project (its
// organization's personal-key restrictions: "Project not found."), then asks for the scope; the
// membership of the project's organization comes last.
import { permissionDenied } from './api-error.ts';
import {
  authenticate,
  CUSTOM_ACTION_REFUSED_2026,
  findProject,
  requireMembership,
  requireScope,
} from './auth.ts';
import type { ApiKey, Project } from '../model.ts';
import type { Operation, Route } from '../routes.ts';
import type { Store } from '../store.ts';

export interface Permitted {
  /** null on an anonymous route asked without a key. */
  key: ApiKey | null;
  project: Project | undefined;
}

export function permit2026(
  store: Store,
  route: Route,
  method: string,
  params: Record<string, string>,
  authorization: string | undefined,
): Permitted {
  // AllowAny (hog_function_template.py@b1d33f0, the public catalog): a key, when sent, is still
  // authenticated, as DRF authenticates every request.
  if (route.anonymous)
    return { key: authorization ? authenticate(store, authorization) : null, project: undefined };
  const key = authenticate(store, authorization);
  if (route.selfAccess) return { key, project: undefined };
  const operation: Operation | undefined = route.methods[method];
  if (!operation || operation.custom) throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
  const project = route.projectScoped ? findProject(store, key, params.project!) : undefined;
  requireScope(key, operation.scope);
  // APIScopePermission: a key scoped to teams reaches no other project.
  if (project && key.scopedTeams?.length && !key.scopedTeams.includes(project.id))
    throw permissionDenied(`API key does not have access to the requested project: ID ${project.id}.`);
  if (project && !route.anyOrganization) requireMembership(store, key, project);
  return { key, project };
}
