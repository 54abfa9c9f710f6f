// The personal API key scopes a field's upstream calls need, said where a tool can read them: the
// field's description ends with one fixed line, "Scopes: a:read, b:read." (SCOPES_LINE), and
// docs/scopes.md is generated from those lines (`npm run schema:print`). PostHog checks them in
// posthog/permissions.py (APIScopePermission): `x:write` satisfies `x:read`.

/** The scopes PostHog defines for the routes the gateway calls. */
export type Scope =
  | 'project:read'
  | 'plugin:read'
  | 'plugin:write'
  | 'hog_function:read'
  | 'hog_function:write'
  | 'batch_export:read'
  | 'batch_export:write'
  | 'activity_log:read';

/** Matches a description's scopes line; group 1 is the comma-separated list. */
export const SCOPES_LINE = /\n\nScopes: ([a-z_]+:(?:read|write)(?:, [a-z_]+:(?:read|write))*)\.$/;

/** `description` with the line that names the scopes its upstream calls need. */
export const needsScopes = (description: string, ...scopes: [Scope, ...Scope[]]): string =>
  `${description}\n\nScopes: ${scopes.join(', ')}.`;

/** The scopes a description names, or none. */
export function scopesOf(description: string | null | undefined): string[] {
  const line = description ? SCOPES_LINE.exec(description) : null;
  return line ? line[1]!.split(', ') : [];
}
