// What the signed-in key may do, from `viewer` (read once at sign-in): the page hides or disables
// what would fail FORBIDDEN. `x:write` grants `x:read`, `*` grants all. When PostHog did not say
// (`known` false: an OAuth token, or a gateway that does not read keys' scopes) everything is
// offered and PostHog decides each call.
import type { DestinationType, Viewer } from './operations.ts';

export function mayUse(viewer: Viewer, scope: string): boolean {
  if (!viewer.known || !viewer.scopes) return true;
  const [object, action] = scope.split(':');
  return viewer.scopes.some(
    (s) => s === '*' || s === scope || (action === 'read' && s === `${object}:write`),
  );
}

/** The scope each kind's enable/pause mutation needs (docs/scopes.md). */
export const WRITE_SCOPE: Record<DestinationType, string> = {
  HogFunction: 'hog_function:write',
  DestinationConfig: 'plugin:write',
  BatchExport: 'batch_export:write',
};

/** What the page does with each scope it uses, for the sign-in summary. */
export const PAGE_SCOPES: [scope: string, use: string][] = [
  ['hog_function:read', 'list hog functions'],
  ['plugin:read', 'list legacy plugin configs'],
  ['batch_export:read', 'list batch exports and their runs'],
  ['activity_log:read', 'read activity and the live feed'],
  ['hog_function:write', 'enable or pause hog functions'],
  ['plugin:write', 'enable or pause plugin configs'],
  ['batch_export:write', 'pause or resume batch exports'],
];
