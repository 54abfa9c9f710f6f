// What the limits plugin needs to know of an operation before it runs, and the shape of what
// tells it: the schema's estimator (schema/cost.ts) is handed to useLimits.
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';

export interface OperationEstimate {
  /** Every field costs 1; a field returning many items multiplies what is under it. */
  cost: number;
  /** The most upstream requests the operation may cause. */
  upstreamCalls: number;
}

/** Prices an operation with its raw variables; null when the variables do not coerce. */
export type EstimateOperation = (
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown>,
) => OperationEstimate | null;
