// Project.destinations(search:, orderBy:): the order input, its enums, and the checks both
// arguments pass before any upstream call (loaders/destination-order.ts holds the rules).
import { badUserInput } from '../errors/codes.ts';
import {
  type DestinationOrder,
  MAX_DESTINATION_SEARCH,
  normalizeSearch,
} from '../loaders/destination-order.ts';
import { builder } from './builder.ts';

export const OrderDirectionRef = builder.enumType('OrderDirection', {
  description: 'Which way a list is ordered.',
  values: {
    ASC: { description: 'Ascending: A to Z, oldest first; nulls last.' },
    DESC: { description: 'Descending: the exact reverse of ASC.' },
  } as const,
});

const DestinationOrderFieldRef = builder.enumType('DestinationOrderField', {
  description: 'What Project.destinations(orderBy:) sorts by; ties go by kind, then id.',
  values: {
    NAME: {
      description: 'The name, any case first, then as written; a destination without one sorts last (ASC).',
    },
    UPDATED_AT: {
      description: 'When the destination was last changed, to the millisecond; unknown sorts last (ASC).',
    },
    KIND: {
      description:
        'The kind: hog functions, then legacy configs, then batch exports (ASC); by id within a kind.',
    },
  } as const,
});

export const DestinationOrderRef = builder.inputType('DestinationOrder', {
  description:
    'How Project.destinations is sorted: every kind is read whole (up to 10,000 of each) and sorted as one list, ties broken by kind, then id.',
  fields: (t) => ({
    field: t.field({ type: DestinationOrderFieldRef, required: true, description: 'What to sort by.' }),
    direction: t.field({
      type: OrderDirectionRef,
      defaultValue: 'ASC',
      description: 'Which way (ASC when left out).',
    }),
  }),
});

/** The search as PostHog would search it (null for none); too long a term is refused here. */
export function checkedSearch(search: string | null | undefined): string | null {
  if (search != null && search.length > MAX_DESTINATION_SEARCH)
    throw badUserInput(`\`search\` must be ${MAX_DESTINATION_SEARCH} characters or fewer.`, {
      field: 'search',
    });
  return normalizeSearch(search);
}

export const checkedOrder = (
  order:
    | { field: DestinationOrder['field']; direction?: DestinationOrder['direction'] | null }
    | null
    | undefined,
): DestinationOrder | null => (order ? { field: order.field, direction: order.direction ?? 'ASC' } : null);
