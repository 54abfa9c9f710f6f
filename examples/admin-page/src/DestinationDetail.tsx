// One destination (node(id:)): what it is, its health, enable/pause, its latest activity and, for
// a batch export, its recent runs. After a toggle the detail is read again, so its new activity
// shows; a health change the subscription brings updates its badge through Apollo's cache.
import { useQuery } from '@apollo/client/react';
import { kindOf } from './DestinationList.tsx';
import { messageOf } from './errors.ts';
import { mayUse } from './grants.ts';
import { HealthBadge } from './HealthBadge.tsx';
import {
  type ActivityEntry,
  type BatchExportRun,
  DESTINATION_DETAIL,
  type RunStatus,
  type Viewer,
} from './operations.ts';
import { ToggleButton } from './ToggleButton.tsx';

export function DestinationDetail({ id, viewer }: { id: string | null; viewer: Viewer }) {
  const { data, loading, error } = useQuery(DESTINATION_DETAIL, {
    variables: { id: id ?? '' },
    skip: !id,
    // A field the key may not read (activity, runs) fails alone: show the rest.
    errorPolicy: 'all',
  });
  if (!id)
    return (
      <section id="detail">
        <h2>Destination</h2>
        <p className="muted">Choose a destination in the list.</p>
      </section>
    );
  const node = data?.node;
  return (
    <section id="detail" aria-busy={loading}>
      <h2>{node ? (node.name ?? '(no name)') : 'Destination'}</h2>
      {error && <p className="error">{messageOf(error)}</p>}
      {node && (
        <>
          <p>
            <span className="kind">{kindOf(node)}</span> ·{' '}
            <span id="state" className={node.enabled ? 'on' : 'off'}>
              {node.enabled ? 'enabled' : 'paused'}
            </span>{' '}
            <ToggleButton destination={node} viewer={viewer} />
          </p>
          <p id="detail-health">
            Health: <HealthBadge health={node.health} /> <span className="muted">{node.health.reason}</span>
          </p>
          {node.interval && <p className="muted">Runs every {node.interval}</p>}
          {node.runs && <Runs runs={node.runs.edges.map((edge) => edge.node)} />}
          <h2>Activity</h2>
          {!mayUse(viewer, 'activity_log:read') ? (
            <p className="muted">This key may not read activity (activity_log:read).</p>
          ) : (
            <Activity entries={node.activity?.edges.map((edge) => edge.node) ?? []} />
          )}
        </>
      )}
    </section>
  );
}

/** A run's class by its typed status: failures red, success green, the rest plain. */
function runClass(status: RunStatus): string | undefined {
  switch (status) {
    case 'COMPLETED':
      return 'on';
    case 'FAILED':
    case 'FAILED_RETRYABLE':
    case 'FAILED_BILLING':
    case 'TERMINATED':
    case 'TIMED_OUT':
      return 'off';
    default:
      return undefined;
  }
}

function Runs({ runs }: { runs: BatchExportRun[] }) {
  return (
    <>
      <h2>Recent runs</h2>
      {runs.length === 0 ? (
        <p className="muted">No runs in the last 7 days.</p>
      ) : (
        <table id="runs">
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <td className={runClass(run.statusValue)}>{run.status}</td>
                <td>{run.createdAt?.slice(5, 16).replace('T', ' ')}</td>
                <td>{run.recordsCompleted === null ? '' : `${run.recordsCompleted} records`}</td>
                <td className="run-error" title={run.latestError ?? undefined}>
                  {run.latestError}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Activity({ entries }: { entries: ActivityEntry[] }) {
  if (entries.length === 0) return <p className="muted">No activity.</p>;
  return (
    <ul className="feed" id="detail-activity">
      {entries.map((entry) => (
        <li key={entry.id}>
          {entry.createdAt.slice(0, 16).replace('T', ' ')} · <strong>{entry.activity}</strong> by{' '}
          {entry.user?.email ?? 'PostHog'}
        </li>
      ))}
    </ul>
  );
}
