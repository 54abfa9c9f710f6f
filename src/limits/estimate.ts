// What the limits plugin needs to know of an operation before it runs, and the shape of what
// tells it: the schema's estimator (schema/cost/estimate.ts) is handed to useLimits.
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';

export interface OperationEstimate {
  /** Every field costs 1; a field returning many items multiplies what is under it. */
  cost: number;
  /** The most upstream requests the operation may cause. */
  upstreamCalls: number;
  /** For a refused operation: where it costs most, and what there would fit (computed on demand). */
  advise?: (measure: 'cost' | 'upstreamCalls', limit: number) => LimitAdvice | null;
  /** Where most of the calls are (a dry run's `costliestField`, computed on demand). */
  costliest?: () => CostliestField | null;
}

/** The connection whose items make the most calls, else the root field that makes the most. */
export interface CostliestField {
  /** The response path, e.g. `project.destinations`. */
  path: string;
  calls: number;
}

/** What to change so that an operation fits a limit. */
export interface LimitAdvice {
  /** The response path of the connection that costs most, e.g. `project.destinations`. */
  path: string;
  argument: 'first' | 'last';
  /** Its size now. */
  size: number;
  /** The largest size there with which the operation fits; null when no size there is enough. */
  fits: number | null;
}

/**
 * Prices an operation with its raw variables; null when the variables do not coerce. `cacheTag`,
 * when present, names what else the price depends on (what the gateway knows of its upstream):
 * an estimate is reused only under the same tag.
 */
export type EstimateOperation = {
  cacheTag?: () => string;
} & ((
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown>,
) => OperationEstimate | null);
