// The limits plugin: everything here is checked before any upstream call.
// - body size, while the body is read (body-size.ts);
// - tokens while parsing, depth, aliases and directives while validating (query-shape.ts);
// - cost and upstream calls once the variables are known, before execution (query-cost.ts).
import { type DocumentNode, type ExecutionArgs, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { limitedBodyParser } from './body-size.ts';
import { estimateOperation, type OperationEstimate } from './query-cost.ts';
import { maxAliasesRule, maxDepthRule, maxDirectivesRule, parseWithTokenLimit } from './query-shape.ts';
import { tooComplex } from './too-complex.ts';

/** Estimates kept per document (yoga's parse cache hands out one DocumentNode per text). */
const ESTIMATES_PER_DOCUMENT = 64;

/**
 * The estimate of an operation, cached per (document, operation name, variables): the same
 * screen sends the same document with a handful of variable sets, and the walk is not free.
 */
function cachedEstimator() {
  const byDocument = new WeakMap<DocumentNode, Map<string, OperationEstimate | null>>();
  return (args: ExecutionArgs): OperationEstimate | null => {
    let cache = byDocument.get(args.document);
    if (!cache) {
      cache = new Map();
      byDocument.set(args.document, cache);
    }
    const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
    let estimate = cache.get(key);
    if (estimate === undefined) {
      const operation = getOperationAST(args.document, args.operationName);
      estimate = operation
        ? estimateOperation(args.schema, args.document, operation, args.variableValues ?? {})
        : null;
      if (cache.size >= ESTIMATES_PER_DOCUMENT) cache.clear();
      cache.set(key, estimate);
    }
    return estimate;
  };
}

export function useLimits(limits: Config['limits']): Plugin {
  const estimate = cachedEstimator();
  const parseFn = parseWithTokenLimit(limits.tokens);
  const parseBody = limitedBodyParser(limits.bodyBytes);
  return {
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
    },
    onExecute({ args, setResultAndStopExecution }) {
      const figures = estimate(args);
      if (!figures) return;
      if (figures.upstreamCalls > limits.upstreamCalls) {
        setResultAndStopExecution({
          errors: [tooComplex('upstreamCalls', figures.upstreamCalls, limits.upstreamCalls)],
        });
      } else if (figures.cost > limits.cost) {
        setResultAndStopExecution({ errors: [tooComplex('cost', figures.cost, limits.cost)] });
      }
    },
  };
}
