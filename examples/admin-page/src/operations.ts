// The page's operations but the destination list's (destination-list-query.ts), with the types of
// their answers. Each names only fields of the gateway's schema.graphql.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type { DestinationKind, Health } from './destination-list-query.ts';

export interface Viewer {
  /** Whether PostHog said what the key may do (false for an OAuth token: PostHog decides per call). */
  known: boolean;
  scopes: string[] | null;
  projectIds: string[] | null;
  organizationIds: string[] | null;
}

/** The first query of a session: checks the key and says what it may do. */
export const SIGN_IN: TypedDocumentNode<{ viewer: Viewer }, Record<string, never>> = gql`
  query SignIn {
    viewer { known scopes projectIds organizationIds }
  }
`;

export type DestinationType = 'HogFunction' | 'DestinationConfig' | 'BatchExport';

export interface ActivityEntry {
  id: string;
  activity: string;
  scope: string;
  itemId: string | null;
  createdAt: string;
  detail: unknown;
  user: { email: string } | null;
}

/** BatchExportRun.statusValue: PostHog's status, typed (UNKNOWN for one it adds later). */
export type RunStatus =
  | 'STARTING'
  | 'RUNNING'
  | 'COMPLETED'
  | 'FAILED'
  | 'FAILED_RETRYABLE'
  | 'FAILED_BILLING'
  | 'CANCELLED'
  | 'TERMINATED'
  | 'TIMED_OUT'
  | 'CONTINUED_AS_NEW'
  | 'UNKNOWN';

export interface BatchExportRun {
  id: string;
  status: string;
  statusValue: RunStatus;
  createdAt: string | null;
  recordsCompleted: number | null;
  latestError: string | null;
}

export interface DestinationDetailData {
  node: {
    __typename: DestinationType;
    id: string;
    name: string | null;
    enabled: boolean;
    health: Health;
    createdAt: string | null;
    updatedAt: string | null;
    activity: { edges: { node: ActivityEntry }[] } | null;
    type?: string;
    paused?: boolean;
    destinationType?: string;
    interval?: string;
    runs?: { edges: { node: BatchExportRun }[] } | null;
  } | null;
}

export const DESTINATION_DETAIL: TypedDocumentNode<DestinationDetailData, { id: string }> = gql`
  query DestinationDetail($id: ID!) {
    node(id: $id) {
      id
      ... on Destination {
        name
        enabled
        health { state reason since }
        createdAt
        updatedAt
        activity(first: 5) { edges { node { id activity scope itemId createdAt detail user { email } } } }
      }
      ... on HogFunction { type }
      ... on BatchExport {
        paused
        destinationType
        interval
        runs(first: 5) { edges { node { id status statusValue createdAt recordsCompleted latestError } } }
      }
    }
  }
`;

/** Each kind's own mutation: hog functions and configs take `enabled`, batch exports pause. */
export const SET_HOG_FUNCTION_ENABLED = gql`
  mutation SetHogFunctionEnabled($id: ID!, $enabled: Boolean!) {
    updateHogFunction(input: { id: $id, enabled: $enabled }) { hogFunction { id enabled } }
  }
`;
export const SET_DESTINATION_CONFIG_ENABLED = gql`
  mutation SetDestinationConfigEnabled($id: ID!, $enabled: Boolean!) {
    updateDestinationConfig(input: { id: $id, enabled: $enabled }) { destinationConfig { id enabled } }
  }
`;
export const PAUSE_BATCH_EXPORT = gql`
  mutation PauseBatchExport($id: ID!) {
    pauseBatchExport(input: { id: $id }) { batchExport { id enabled paused } }
  }
`;
export const UNPAUSE_BATCH_EXPORT = gql`
  mutation UnpauseBatchExport($id: ID!) {
    unpauseBatchExport(input: { id: $id }) { batchExport { id enabled paused } }
  }
`;

/** The project's activity as it happens (docs/live-updates.md). */
export const ACTIVITY_ADDED: TypedDocumentNode<{ activityAdded: ActivityEntry }, { projectId: string }> = gql`
  subscription ActivityAdded($projectId: String!) {
    activityAdded(projectId: $projectId) { id activity scope itemId createdAt detail user { email } }
  }
`;

export interface HealthChange {
  id: string;
  kind: DestinationKind;
  old: Health;
  new: Health;
  /** With its id and health: Apollo's cache writes the new health to the list row and the detail. */
  destination: { __typename: DestinationType; id: string; name: string | null; health: Health };
}

/** The project's destinations whose health changes, as the gateway polls them (docs/live-updates.md). */
export const DESTINATION_HEALTH_CHANGED: TypedDocumentNode<
  { destinationHealthChanged: HealthChange },
  { projectId: string }
> = gql`
  subscription DestinationHealthChanged($projectId: ID!) {
    destinationHealthChanged(projectId: $projectId) {
      id
      kind
      old { state reason since }
      new { state reason since }
      destination { id name health { state reason since } }
    }
  }
`;
