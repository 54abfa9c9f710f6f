// A dry run prices an operation without running it: the request carries `X-Dry-Run: 1` (or the
// GraphQL request's `extensions: { "dryRun": true }`, which every transport carries), and the
// limits plugin answers `{ data: null, extensions: { dryRun } }` in place of executing: nothing
// is called upstream. Queries and mutations only (a subscription is not priced before it runs).
import type { ExecutionResult } from 'graphql';
import { type BudgetLeft, fewestLeft } from '../upstream/keys/budget-left.ts';
import type { CostliestField, OperationEstimate } from './estimate.ts';
import type { LimitMeasure } from './too-complex.ts';

/** What would refuse the operation: the measure over its limit. */
export interface Refusal {
  measure: Extract<LimitMeasure, 'cost' | 'upstreamCalls'>;
  figure: number;
  limit: number;
}

export interface DryRun {
  estimatedCalls: number;
  cost: number;
  costliestField: CostliestField | null;
  fitsLimits: boolean;
  refusal?: { code: 'QUERY_TOO_COMPLEX'; measure: Refusal['measure']; figure: number; limit: number };
  /** Whether the estimated calls fit what is left of the key's budget in every window now. */
  fitsBudget: boolean;
  budget: BudgetLeft | null;
}

interface DryRunContext {
  request?: Request;
  params?: { extensions?: Record<string, unknown> };
}

/** Whether the request asks for a dry run. */
export function isDryRun(context: DryRunContext): boolean {
  const header = context.request?.headers.get('x-dry-run')?.trim().toLowerCase();
  return header === '1' || header === 'true' || context.params?.extensions?.dryRun === true;
}

/** The dry run's answer: the estimate, where it is costliest, and whether it fits now. */
export function dryRunAnswer(
  figures: OperationEstimate,
  refusal: Refusal | null,
  budget: BudgetLeft | null,
): ExecutionResult {
  const dryRun: DryRun = {
    estimatedCalls: figures.upstreamCalls,
    cost: figures.cost,
    costliestField: figures.costliest?.() ?? null,
    fitsLimits: refusal === null,
    ...(refusal ? { refusal: { code: 'QUERY_TOO_COMPLEX', ...refusal } } : {}),
    fitsBudget: figures.upstreamCalls <= fewestLeft(budget),
    budget,
  };
  return { data: null, extensions: { dryRun } };
}
