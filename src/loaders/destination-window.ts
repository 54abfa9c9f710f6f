// The kinds of Project.destinations as one window: merged in their order (hog functions, then
// configs, then batch exports), each read as far as a page reaches, or read whole and sorted.
import type { GraphQLError } from 'graphql';
import { type KindList, MAX_WHOLE } from './destination-kinds.ts';
import { type DestinationOrder, sortDestinations } from './destination-order.ts';
import type { DestinationKind, DestinationRecord } from './destinations.ts';

/** The merged list as a window source, and each kind left out because the key may not read it. */
export interface DestinationWindow {
  total: number;
  slice(start: number, end: number): Promise<DestinationRecord[]>;
  refused: { kind: DestinationKind; error: GraphQLError }[];
}

export interface KindRead {
  kind: DestinationKind;
  list: KindList<DestinationRecord>;
  error: GraphQLError | null;
}

/** The kinds, in their order, as one window. */
export function merged(reads: KindRead[]): DestinationWindow {
  const total = reads.reduce((sum, r) => sum + r.list.count, 0);
  return {
    total,
    refused: reads.flatMap((r) => (r.error ? [{ kind: r.kind, error: r.error }] : [])),
    async slice(start, end) {
      const parts: Promise<DestinationRecord[]>[] = [];
      let base = 0;
      for (const { list } of reads) {
        const from = Math.max(start, base);
        const to = Math.min(end, base + list.count);
        if (from < to) parts.push(list.slice(from - base, to - base));
        base += list.count;
      }
      return (await Promise.all(parts)).flat();
    },
  };
}

/** The kinds read whole (MAX_WHOLE items of each at most) and sorted as one list. */
export async function sortedWindow(reads: KindRead[], order: DestinationOrder): Promise<DestinationWindow> {
  const parts = await Promise.all(
    reads.map(({ list }) => (list.count > 0 ? list.slice(0, Math.min(list.count, MAX_WHOLE)) : [])),
  );
  const items = sortDestinations(parts.flat(), order);
  return {
    total: items.length,
    slice: async (start, end) => items.slice(start, end),
    refused: merged(reads).refused,
  };
}
