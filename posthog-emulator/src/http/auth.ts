// Personal API key authentication and scopes, as PostHog applies them.
import {
  authenticationFailed,
  missingScope,
  notAuthenticated,
  notFound,
  permissionDenied,
} from './api-error.ts';
import type { Dialect } from '../dialect.ts';
import type { ApiKey, Project } from '../model.ts';
import type { Store } from '../store.ts';
import { prefixedKey } from './prefixed-keys.ts';

export const CUSTOM_ACTION_REFUSED = 'This action does not support Personal API Key access';
/** The same refusal as PostHog words it in 2026. */
export const CUSTOM_ACTION_REFUSED_2026 = 'This action does not support personal API key access';

export function authenticate(store: Store, authorization: string | undefined): ApiKey {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw notAuthenticated();
  const key = store.keys.get(match[1]!) ?? prefixedKey(store.anyKeyPrefix, store.dialect, match[1]!);
  if (!key) throw authenticationFailed();
  return key;
}

/** `:write` grants `:read`; `*` grants everything; an unscoped (legacy) key may call anything. */
export function hasScope(key: ApiKey, scope: string): boolean {
  if (key.scopes === null) return true;
  const [object] = scope.split(':');
  return key.scopes.some(
    (s) => s === '*' || s === scope || (scope.endsWith(':read') && s === `${object}:write`),
  );
}

export function requireScope(key: ApiKey, scope: string): void {
  if (!hasScope(key, scope)) throw missingScope(scope);
}

/**
 * The custom actions (frontend, job, rearrange, important_changes, bookmark) declare no scope in
 * PostHog, so every scoped key, even `*`, is refused there; the spec dialect asks for `scope`.
 */
export function requireCustomActionAccess(dialect: Dialect, key: ApiKey, scope: string): void {
  if (dialect === 'posthog') {
    if (key.scopes !== null) throw permissionDenied(CUSTOM_ACTION_REFUSED);
    return;
  }
  // Unscoped legacy keys were made `*` keys (March 2026): every personal API key is refused.
  if (dialect === 'posthog-2026') throw permissionDenied(CUSTOM_ACTION_REFUSED_2026);
  requireScope(key, scope);
}

/** Resolves `:project_id` (an integer or `@current`) for a key that must belong to its organization. */
export function resolveProject(store: Store, key: ApiKey, projectId: string): Project {
  const project = findProject(store, key, projectId);
  requireMembership(store, key, project);
  return project;
}

/** `:project_id` (an integer or `@current`), whoever may see it. */
export function findProject(store: Store, key: ApiKey, projectId: string): Project {
  // PostHog parses the id as an integer first: a non-numeric one is a plain "Not found.".
  if (projectId !== '@current' && !/^\d+$/.test(projectId)) throw notFound();
  const id = projectId === '@current' ? key.currentProjectId : Number(projectId);
  const project = store.projects.get(id);
  if (!project) throw notFound('Project not found.');
  return project;
}

export function requireMembership(store: Store, key: ApiKey, project: Project): void {
  const user = store.users.get(key.userId)!;
  if (!user.organizationIds.includes(project.organizationId)) {
    throw permissionDenied("You don't have access to the project.");
  }
}
