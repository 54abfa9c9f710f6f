// The project's activity as it happens: Subscription.activityAdded over the session's WebSocket
// (graphql-ws, the key in the init payload), newest on top, the last 50 kept.
import { useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { messageOf } from './errors.ts';
import { mayUse } from './grants.ts';
import { ACTIVITY_ADDED, type ActivityEntry, type Viewer } from './operations.ts';

const KEPT = 50;

/** The name PostHog's entry gives its item, when it gives one. */
const nameIn = (detail: unknown) =>
  detail && typeof detail === 'object' && typeof (detail as { name?: unknown }).name === 'string'
    ? (detail as { name: string }).name
    : null;

export function LiveFeed({ projectId, viewer }: { projectId: string; viewer: Viewer }) {
  const allowed = mayUse(viewer, 'activity_log:read');
  const [entries, setEntries] = useState<ActivityEntry[]>([]);
  const { error } = useSubscription(ACTIVITY_ADDED, {
    variables: { projectId },
    skip: !allowed,
    errorPolicy: 'all',
    onData: ({ data }) => {
      const entry = data.data?.activityAdded;
      if (entry) setEntries((kept) => [entry, ...kept].slice(0, KEPT));
    },
  });
  return (
    <section id="feed">
      <h2>Live activity</h2>
      {!allowed && <p className="muted">This key may not read activity (activity_log:read).</p>}
      {error && <p className="error">{messageOf(error)}</p>}
      {allowed && entries.length === 0 && (
        <p className="muted">Listening: changes show here as they happen.</p>
      )}
      <ul className="feed">
        {entries.map((entry) => (
          <li key={entry.id} data-item-id={entry.itemId ?? ''} data-activity={entry.activity}>
            {entry.createdAt.slice(11, 19)} · <strong>{entry.activity}</strong> {entry.scope}{' '}
            {nameIn(entry.detail) ?? entry.itemId}{' '}
            <span className="muted">by {entry.user?.email ?? 'PostHog'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
