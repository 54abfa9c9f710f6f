// The project's destinations of every kind (Project.destinations), a page at a time: Next asks
// for the page after the last cursor, Previous for the page before the first. The list's
// arguments (kinds, search, order: ListControls) come from the caller as they are
// (destination-list-query.ts): changing them starts again at the first page. Each row shows its
// health, which the health subscription keeps current in Apollo's cache (HealthPanel).
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import {
  DESTINATIONS,
  type DestinationRow,
  type ListArguments,
  listVariables,
  PAGE_SIZE,
  type PagePosition,
} from './destination-list-query.ts';
import { messageOf } from './errors.ts';
import { HealthBadge } from './HealthBadge.tsx';
import { ListControls } from './ListControls.tsx';

interface Props {
  projectId: string;
  listArguments: ListArguments;
  onListArguments: (args: ListArguments) => void;
  selected: string | null;
  onSelect: (id: string) => void;
}

export const kindOf = (row: Pick<DestinationRow, '__typename' | 'type' | 'destinationType'>) =>
  row.__typename === 'HogFunction'
    ? `hog function (${row.type})`
    : row.__typename === 'BatchExport'
      ? `batch export (${row.destinationType})`
      : 'plugin config';

export function DestinationList({ projectId, listArguments, onListArguments, selected, onSelect }: Props) {
  const [position, setPosition] = useState<PagePosition>({ after: null });
  const [page, setPage] = useState(1);
  const { data, previousData, loading, error } = useQuery(DESTINATIONS, {
    variables: listVariables(projectId, listArguments, position),
    // A kind the key may not read is an error beside the other kinds' page: keep both.
    errorPolicy: 'all',
  });
  const list = (data ?? previousData)?.project?.destinations;
  const restart = (args: ListArguments) => {
    setPosition({ after: null });
    setPage(1);
    onListArguments(args);
  };
  const go = (to: PagePosition, step: number) => {
    setPosition(to);
    setPage((n) => n + step);
  };
  return (
    <section id="destinations" aria-busy={loading}>
      <h2>
        Destinations{' '}
        {list && (
          <span id="total" className="muted">
            ({list.totalCount})
          </span>
        )}
        {listArguments.search && <span className="muted"> matching “{listArguments.search}”</span>}
      </h2>
      <ListControls listArguments={listArguments} onChange={restart} />
      {error && <p className="error">{messageOf(error)}</p>}
      <table>
        <tbody>
          {list?.edges.map(({ node }) => (
            <tr key={node.id} data-id={node.id} className={node.id === selected ? 'selected' : undefined}>
              <td>
                <button type="button" className="link" onClick={() => onSelect(node.id)}>
                  {node.name ?? '(no name)'}
                </button>
              </td>
              <td className="kind">{kindOf(node)}</td>
              <td className={node.enabled ? 'on' : 'off'}>{node.enabled ? 'enabled' : 'paused'}</td>
              <td>
                <HealthBadge health={node.health} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button
          type="button"
          disabled={loading || !list?.pageInfo.hasPreviousPage || !list.pageInfo.startCursor}
          onClick={() => go({ before: list!.pageInfo.startCursor! }, -1)}
        >
          Previous
        </button>{' '}
        <span id="page">
          page {page} of {list ? Math.max(1, Math.ceil(list.totalCount / PAGE_SIZE)) : '…'}
        </span>{' '}
        <button
          type="button"
          disabled={loading || !list?.pageInfo.hasNextPage}
          onClick={() => go({ after: list!.pageInfo.endCursor }, 1)}
        >
          Next
        </button>
      </p>
    </section>
  );
}
