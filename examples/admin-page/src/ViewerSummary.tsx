// What the key may do, as `viewer` answered at sign-in: its scopes, the projects and organizations
// it is limited to, and which of the page's actions it allows.
import { mayUse, PAGE_SCOPES } from './grants.ts';
import type { Viewer } from './operations.ts';

export function ViewerSummary({ viewer }: { viewer: Viewer }) {
  if (!viewer.known)
    return (
      <p id="viewer" className="muted" style={{ padding: '0 20px' }}>
        The gateway could not read this credential’s scopes (an OAuth token, or scope reads are off): every
        action is offered, and PostHog decides each call.
      </p>
    );
  const refused = PAGE_SCOPES.filter(([scope]) => !mayUse(viewer, scope));
  return (
    <p id="viewer" style={{ padding: '0 20px' }}>
      Key scopes: <code>{viewer.scopes?.join(', ')}</code>
      {' · '}projects: {viewer.projectIds?.join(', ') ?? 'any'}
      {' · '}organizations: {viewer.organizationIds?.join(', ') ?? 'any'}
      {refused.length > 0 && (
        <span className="muted"> · not allowed: {refused.map(([, use]) => use).join('; ')}</span>
      )}
    </p>
  );
}
