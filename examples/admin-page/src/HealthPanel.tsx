// The project's destinations whose health changes: Subscription.destinationHealthChanged over the
// session's WebSocket, one line per change, newest on top, the last 50 kept. Each change carries
// its destination with its id and new health, and Apollo writes that to its cache: the list row's
// badge and the open detail's change with no request of their own.
import { useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { messageOf } from './errors.ts';
import { mayUse } from './grants.ts';
import { HealthBadge } from './HealthBadge.tsx';
import { DESTINATION_HEALTH_CHANGED, type HealthChange, type Viewer } from './operations.ts';

const KEPT = 50;
const READ_SCOPES = ['hog_function:read', 'plugin:read', 'batch_export:read'];

interface Line {
  at: string;
  change: HealthChange;
}

export function HealthPanel({ projectId, viewer }: { projectId: string; viewer: Viewer }) {
  // The gateway leaves out the kinds the key may not read; with none, there is nothing to watch.
  const allowed = READ_SCOPES.some((scope) => mayUse(viewer, scope));
  const [lines, setLines] = useState<Line[]>([]);
  const { error } = useSubscription(DESTINATION_HEALTH_CHANGED, {
    variables: { projectId },
    skip: !allowed,
    errorPolicy: 'all',
    onData: ({ data }) => {
      const change = data.data?.destinationHealthChanged;
      if (change) setLines((kept) => [{ at: new Date().toISOString(), change }, ...kept].slice(0, KEPT));
    },
  });
  return (
    <section id="health">
      <h2>Health</h2>
      {!allowed && <p className="muted">This key may read no kind of destination.</p>}
      {error && <p className="error">{messageOf(error)}</p>}
      {allowed && lines.length === 0 && (
        <p className="muted">Watching: a destination whose health changes shows here.</p>
      )}
      <ul className="feed">
        {lines.map(({ at, change }) => (
          <li key={`${at}:${change.id}`} data-id={change.id} data-state={change.new.state}>
            {at.slice(11, 19)} · {change.destination.name ?? '(no name)'}: <HealthBadge health={change.old} />{' '}
            → <HealthBadge health={change.new} /> <span className="muted">{change.new.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
