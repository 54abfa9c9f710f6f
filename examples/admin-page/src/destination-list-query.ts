// The destination list's query and its arguments, in one place: a new argument of
// Project.destinations is a field of ListArguments, a variable of DESTINATIONS and a line of
// listVariables; the list component passes ListArguments through without reading them.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type { DestinationType } from './operations.ts';

export type DestinationKind = 'HOG_FUNCTION' | 'PLUGIN_CONFIG' | 'BATCH_EXPORT';

export interface ListArguments {
  /** Only these kinds; null: every kind. */
  kinds: DestinationKind[] | null;
  /** Only enabled (true) or paused (false) destinations; null: both. */
  enabled: boolean | null;
  /** Only destinations whose name or description holds this text, any case; null: all. */
  search: string | null;
  /** The whole list sorted; null: each kind in PostHog's order (by relevance under a search). */
  orderBy: DestinationOrder | null;
}

export type DestinationOrderField = 'NAME' | 'UPDATED_AT' | 'KIND';
export type OrderDirection = 'ASC' | 'DESC';

export interface DestinationOrder {
  field: DestinationOrderField;
  direction: OrderDirection;
}

export const EVERY_DESTINATION: ListArguments = { kinds: null, enabled: null, search: null, orderBy: null };

/** Where the page is: after a cursor (the next page), or before one (the previous page). */
export type PagePosition = { after: string | null } | { before: string };

export const PAGE_SIZE = 20;

export type HealthState = 'HEALTHY' | 'DEGRADED' | 'DISABLED' | 'FAILING' | 'UNKNOWN';

/** Destination.health, the same on every kind. */
export interface Health {
  state: HealthState;
  reason: string;
  since: string | null;
}

export interface DestinationRow {
  __typename: DestinationType;
  id: string;
  name: string | null;
  enabled: boolean;
  health: Health;
  type?: string;
  destinationType?: string;
}

export interface DestinationsData {
  project: {
    destinations: {
      totalCount: number;
      edges: { cursor: string; node: DestinationRow }[];
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
    } | null;
  } | null;
}

export const DESTINATIONS: TypedDocumentNode<DestinationsData, Record<string, unknown>> = gql`
  query Destinations(
    $projectId: String!
    $kinds: [DestinationKind!]
    $enabled: Boolean
    $search: String
    $orderBy: DestinationOrder
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    project(projectId: $projectId) {
      destinations(
        kinds: $kinds
        enabled: $enabled
        search: $search
        orderBy: $orderBy
        first: $first
        after: $after
        last: $last
        before: $before
      ) {
        totalCount
        edges {
          cursor
          node {
            id
            name
            enabled
            health { state reason since }
            ... on HogFunction { type }
            ... on BatchExport { destinationType }
          }
        }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`;

/** The query's variables: the list's arguments and the page's window. */
export function listVariables(projectId: string, args: ListArguments, position: PagePosition) {
  const window =
    'before' in position
      ? { last: PAGE_SIZE, before: position.before }
      : { first: PAGE_SIZE, after: position.after };
  const { kinds, enabled, search, orderBy } = args;
  return { projectId, kinds, enabled, search, orderBy, ...window };
}
