// What npm run bench measures: each scenario's query for the gateway and bare yoga, the floor's
// route doing the same upstream GETs, and Mesh's query where it can ask for the same data.

/** A dialect of the reference upstream the scenarios run against (docs/upstream.md). */
export type BenchDialect = 'spec' | 'posthog' | 'posthog-2026';

/** The reference upstream's dialects, in the order the bench runs them. */
export const DIALECTS: readonly BenchDialect[] = ['spec', 'posthog', 'posthog-2026'];

/**
 * Each dialect's key: mid-2024 PostHog refuses important_changes to every scoped key (the
 * combined view reads it), so its scenarios call with the unscoped legacy key; today's PostHog
 * made that a `*` key like the others.
 */
export const KEY_OF: Record<BenchDialect, string> = {
  spec: 'Bearer phx_full',
  posthog: 'Bearer phx_legacy',
  'posthog-2026': 'Bearer phx_full',
};

/** The scenarios that read what every PostHog serves run in all three dialects. */
const EVERY_DIALECT: BenchDialect[] = ['spec', 'posthog', 'posthog-2026'];

export interface Scenario {
  name: string;
  /** The dialects it runs in: those whose upstream serves what it reads. */
  dialects: BenchDialect[];
  latencyMs: number;
  query: string;
  /** The floor's route doing the same upstream GETs. */
  floorPath: string;
  /**
   * Mesh's query for the same data, over the REST shapes it exposes. None: Mesh sits this
   * scenario out (an activity entry carries no project to read its config by; its OpenAPI
   * description has no hog functions).
   */
  meshQuery?: string;
  /** Tailcall's query, over the same REST shapes as Mesh's (rivals/tailcall.graphql); none: it sits out. */
  tailcallQuery?: string;
}

export const MESH = 'GraphQL Mesh (OpenAPI)';
export const MESH_COMBINED_PROJECT = (p: string) => `
  p${p}: project(project_id: "${p}") { id name }
  c${p}: configs(project_id: "${p}", limit: 5, offset: 0) { count results { id name enabled order delivery_rate_24h
    activity { first(n: 2) { activity created_at user { email } } } } }
  l${p}: activity_log(project_id: "${p}") { first(n: 5) { activity scope item_id created_at user { first_name last_name } } }
  i${p}: important_changes(project_id: "${p}") { activity scope item_id unread created_at }`;
export const MESH_COMBINED = `{ ${MESH_COMBINED_PROJECT('1')} ${MESH_COMBINED_PROJECT('2')} }`;

export const TAILCALL = 'Tailcall';
/** Mesh's combined view, with the first N entries of a page as Tailcall's fields name them. */
export const TAILCALL_COMBINED = MESH_COMBINED.replaceAll('first(n: 2)', 'first2').replaceAll(
  'first(n: 5)',
  'first5',
);

export const COMBINED_PROJECT = (projectId: string) => `project(projectId: "${projectId}") {
    id name
    destinationConfigs(first: 5) {
      totalCount
      edges { node { id databaseId name enabled order deliveryRate24h
        activity(first: 2) { edges { node { activity createdAt user { email } } } } } }
    }
    activityLog(first: 5) { edges { node { activity scope itemId createdAt user { firstName lastName } } } }
    importantChanges { lastRead entries { activity scope itemId unread createdAt } }
  }`;
export const COMBINED = `{ p1: ${COMBINED_PROJECT('1')} p2: ${COMBINED_PROJECT('2')} }`;

export const SCENARIOS: Scenario[] = [
  {
    name: 'one config by id',
    dialects: EVERY_DIALECT,
    latencyMs: 0,
    query:
      '{ project(projectId: "1") { destinationConfig(databaseId: 7) { id databaseId name enabled order } } }',
    floorPath: '/one',
    meshQuery: '{ config(project_id: "1", id: 7) { id name enabled order } }',
    tailcallQuery: '{ config(project_id: "1", id: 7) { id name enabled order } }',
  },
  {
    // The contract's page of configs (issue 26), as a frontend's list view asks for it.
    name: '100 configs',
    dialects: EVERY_DIALECT,
    latencyMs: 0,
    query:
      '{ project(projectId: "1") { destinationConfigs(first: 100) { edges { node { id name enabled order plugin } } } } }',
    floorPath: '/hundred',
    meshQuery:
      '{ configs(project_id: "1", limit: 100, offset: 0) { results { id name enabled order plugin } } }',
    tailcallQuery:
      '{ configs(project_id: "1", limit: 100, offset: 0) { results { id name enabled order plugin } } }',
  },
  {
    // Today's PostHog no longer serves important changes: the view as it was is not its to answer.
    name: 'combined view, 2 projects, upstream 0 ms',
    dialects: ['spec', 'posthog'],
    latencyMs: 0,
    query: COMBINED,
    floorPath: '/combined',
    meshQuery: MESH_COMBINED,
    tailcallQuery: TAILCALL_COMBINED,
  },
  {
    name: 'combined view, 2 projects, upstream 20 ms',
    dialects: ['spec', 'posthog'],
    latencyMs: 20,
    query: COMBINED,
    floorPath: '/combined',
    meshQuery: MESH_COMBINED,
    tailcallQuery: TAILCALL_COMBINED,
  },
  {
    // A hosted PostHog is about 100 ms away: what a user feels is latency, with calls in flight.
    name: 'combined view, 2 projects, upstream 100 ms',
    dialects: ['spec', 'posthog'],
    latencyMs: 100,
    query: COMBINED,
    floorPath: '/combined',
    meshQuery: MESH_COMBINED,
    tailcallQuery: TAILCALL_COMBINED,
  },
  {
    name: 'activity log (50) with configs',
    dialects: EVERY_DIALECT,
    latencyMs: 0,
    query:
      '{ project(projectId: "1") { activityLog(first: 50) { edges { node { id activity createdAt destinationConfig { name } } } } } }',
    floorPath: '/activity',
  },
  {
    // Today's PostHog: the hog functions of the destination kinds, the plugin configs no enabled
    // legacy_destination supersedes and the batch exports, one connection (9 upstream GETs: the
    // functions, two pages of configs, one retrieve per plugin, the exports). The gateway keeps
    // what a key read of plugins (loaders/plugin-templates.ts), so from its second request it
    // makes 4; the bench's "upstream calls" column says so, and the hand-written servers make all 9.
    name: 'destinations, all three kinds',
    dialects: ['posthog-2026'],
    latencyMs: 0,
    query:
      '{ project(projectId: "1") { destinations(first: 20) { totalCount edges { node { __typename id name enabled ... on HogFunction { type } ... on BatchExport { destinationType } } } } } }',
    floorPath: '/destinations',
  },
];
