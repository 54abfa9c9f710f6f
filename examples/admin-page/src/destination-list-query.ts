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
}

export const EVERY_DESTINATION: ListArguments = { kinds: null, enabled: null };

/** Where the page is: after a cursor (the next page), or before one (the previous page). */
export type PagePosition = { after: string | null } | { before: string };

export const PAGE_SIZE = 20;

export interface DestinationRow {
  __typename: DestinationType;
  id: string;
  name: string | null;
  enabled: boolean;
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
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    project(projectId: $projectId) {
      destinations(kinds: $kinds, enabled: $enabled, first: $first, after: $after, last: $last, before: $before) {
        totalCount
        edges {
          cursor
          node {
            id
            name
            enabled
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
  return { projectId, kinds: args.kinds, enabled: args.enabled, ...window };
}
