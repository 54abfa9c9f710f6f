// The limits plugin: everything here is checked before any upstream call.
// - body size, while the body is read (body-size.ts); how deep variables nest (input-depth.ts);
// - tokens while parsing, depth, aliases and directives while validating (query-shape.ts), and
//   introspection's own depth, aliases and answer size (introspection-shape.ts);
// - cost and upstream calls once the variables are known, before execution (by the estimator it
//   is handed: schema/cost/estimate.ts); a dry run is answered then, instead of running.
import {
  type DocumentNode,
  type ExecutionArgs,
  getOperationAST,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/index.ts';
import { limitedBodyParser } from '../server/body-size.ts';
import type { CostReport } from './cost-report.ts';
import { isDryRun, type Refusal } from './dry-run.ts';
import type { EstimateOperation, OperationEstimate } from './estimate.ts';
import { checkInputDepth } from './input-depth.ts';
import { introspectionLimitsRule } from './introspection-shape.ts';
import { maxAliasesRule, maxDepthRule, maxDirectivesRule, parseWithTokenLimit } from './query-shape.ts';
import { tooComplex } from './too-complex.ts';

/** Estimates kept per document (yoga's parse cache hands out one DocumentNode per text). */
const ESTIMATES_PER_DOCUMENT = 64;
/** Variable sets longer than this (as JSON) are estimated each time, never kept. */
const MAX_ESTIMATE_KEY_LENGTH = 4_096;

/**
 * The estimate of an operation, cached per (document, operation name, the variables it declares):
 * the same screen sends the same document with a handful of variable sets, and the walk is not
 * free. Variables the operation does not declare change nothing and are not part of the key, so
 * inventing them cannot fill the cache.
 */
function cachedEstimator(estimateOperation: EstimateOperation) {
  /** Per document and operation name: the operation, the variables it declares, its estimates. */
  const byDocument = new WeakMap<DocumentNode, Map<string, Estimates | null>>();
  const estimatesOf = (args: ExecutionArgs): Estimates | null => {
    let operations = byDocument.get(args.document);
    if (!operations) {
      operations = new Map();
      byDocument.set(args.document, operations);
    }
    const name = args.operationName ?? '';
    let found = operations.get(name);
    if (found === undefined) {
      const operation = getOperationAST(args.document, args.operationName);
      found = operation
        ? {
            operation,
            declared: (operation.variableDefinitions ?? []).map((d) => d.variable.name.value),
            byVariables: new Map(),
          }
        : null;
      operations.set(name, found);
    }
    return found;
  };
  return (args: ExecutionArgs): OperationEstimate | null => {
    const estimates = estimatesOf(args);
    if (!estimates) return null;
    const given = args.variableValues ?? {};
    const key = `${estimateOperation.cacheTag?.() ?? ''}${JSON.stringify(estimates.declared.map((name) => given[name]))}`;
    if (key.length > MAX_ESTIMATE_KEY_LENGTH) {
      return estimateOperation(args.schema, args.document, estimates.operation, given);
    }
    const cache = estimates.byVariables;
    let estimate = cache.get(key);
    if (estimate === undefined) {
      estimate = estimateOperation(args.schema, args.document, estimates.operation, given);
      if (cache.size >= ESTIMATES_PER_DOCUMENT) cache.clear();
      cache.set(key, estimate);
    }
    return estimate;
  };
}

interface Estimates {
  operation: OperationDefinitionNode;
  declared: string[];
  byVariables: Map<string, OperationEstimate | null>;
}

/** The measure the operation is over its limit by, if any (the calls first). */
function refusalOf(figures: OperationEstimate, limits: Config['limits']): Refusal | null {
  if (figures.upstreamCalls > limits.upstreamCalls)
    return { measure: 'upstreamCalls', figure: figures.upstreamCalls, limit: limits.upstreamCalls };
  if (figures.cost > limits.cost) return { measure: 'cost', figure: figures.cost, limit: limits.cost };
  return null;
}

/**
 * `estimateOperation` prices an operation before it runs (the schema's own, schema/cost/estimate.ts): this
 * plugin refuses what costs more than the limits allow, and knows nothing of the schema itself.
 * `report`, when given, is handed each estimate and answers dry runs (cost-report.ts).
 */
export function useLimits(
  limits: Config['limits'],
  estimateOperation: EstimateOperation,
  report?: CostReport,
): Plugin {
  const estimate = cachedEstimator(estimateOperation);
  const parseFn = parseWithTokenLimit(limits.tokens);
  const parseBody = limitedBodyParser(limits.bodyBytes);
  return {
    onParams({ params }) {
      checkInputDepth('variables', params.variables);
      checkInputDepth('extensions', params.extensions);
    },
    onRequestParse({ request, setRequestParser }) {
      if (request.method === 'POST') setRequestParser(parseBody);
    },
    onParse({ setParseFn }) {
      setParseFn(parseFn);
    },
    onValidate({ addValidationRule }) {
      addValidationRule(maxDepthRule(limits.depth));
      addValidationRule(maxAliasesRule(limits.aliases));
      addValidationRule(maxDirectivesRule(limits.directives));
      addValidationRule(introspectionLimitsRule(limits.introspection));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const figures = estimate(args);
      const context = args.contextValue as object;
      report?.estimated(context, figures);
      if (!figures) return undefined;
      const refusal = refusalOf(figures, limits);
      // A dry run is answered here, whether or not the operation fits: nothing runs.
      if (report && isDryRun(context))
        return report.dryRun(context, figures, refusal).then(setResultAndStopExecution);
      if (!refusal) return undefined;
      const advice = figures.advise?.(refusal.measure, refusal.limit);
      setResultAndStopExecution({
        errors: [tooComplex(refusal.measure, refusal.figure, refusal.limit, advice)],
      });
      return undefined;
    },
  };
}
