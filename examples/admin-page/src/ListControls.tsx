// The destination list's controls: which kinds, a search (sent on Enter), and the order. Each
// change hands the caller a whole new ListArguments; the list then starts again at page one.
import { type FormEvent, useState } from 'react';
import type { DestinationKind, DestinationOrder, ListArguments } from './destination-list-query.ts';

const KINDS: [label: string, kinds: DestinationKind[] | null][] = [
  ['Every kind', null],
  ['Hog functions', ['HOG_FUNCTION']],
  ['Plugin configs', ['PLUGIN_CONFIG']],
  ['Batch exports', ['BATCH_EXPORT']],
];

const ORDERS: [label: string, order: DestinationOrder | null][] = [
  ['Kind, then PostHog’s order', null],
  ['Name A→Z', { field: 'NAME', direction: 'ASC' }],
  ['Name Z→A', { field: 'NAME', direction: 'DESC' }],
  ['Last change, oldest first', { field: 'UPDATED_AT', direction: 'ASC' }],
  ['Last change, newest first', { field: 'UPDATED_AT', direction: 'DESC' }],
  ['Kind A→Z', { field: 'KIND', direction: 'ASC' }],
  ['Kind Z→A', { field: 'KIND', direction: 'DESC' }],
];

const orderKey = (order: DestinationOrder | null) => (order ? `${order.field}:${order.direction}` : '');

interface Props {
  listArguments: ListArguments;
  onChange: (args: ListArguments) => void;
}

export function ListControls({ listArguments, onChange }: Props) {
  const [text, setText] = useState(listArguments.search ?? '');
  const kindIndex = KINDS.findIndex(([, kinds]) => kinds?.join() === listArguments.kinds?.join());
  const orderIndex = ORDERS.findIndex(([, order]) => orderKey(order) === orderKey(listArguments.orderBy));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onChange({ ...listArguments, search: text.trim() || null });
  };
  return (
    <form className="list-controls" onSubmit={submit}>
      <select
        id="kinds"
        aria-label="Kinds"
        value={kindIndex}
        onChange={(event) => onChange({ ...listArguments, kinds: KINDS[Number(event.target.value)]![1] })}
      >
        {KINDS.map(([label], index) => (
          <option key={label} value={index}>
            {label}
          </option>
        ))}
      </select>
      <input
        id="search"
        type="search"
        aria-label="Search names (Enter)"
        placeholder="Search names… (Enter)"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <select
        id="sort"
        aria-label="Order"
        value={orderIndex}
        onChange={(event) => onChange({ ...listArguments, orderBy: ORDERS[Number(event.target.value)]![1] })}
      >
        {ORDERS.map(([label], index) => (
          <option key={label} value={index}>
            {label}
          </option>
        ))}
      </select>
    </form>
  );
}
