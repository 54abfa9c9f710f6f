// The limits plugin: everything here is checked before any upstream call.
// - body size, while the body is read (body-size.ts);
// - tokens while parsing, depth, aliases and directives while validating (query-shape.ts);
// - cost and upstream calls once the variables are known, before execution (query-cost.ts).
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { limitedBodyParser } from './body-size.ts';
import { estimateOperation } from './query-cost.ts';
import { maxAliasesRule, maxDepthRule, maxDirectivesRule, parseWithTokenLimit } from './query-shape.ts';
import { tooComplex } from './too-complex.ts';

export function useLimits(limits: Config['limits']): Plugin {
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
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const estimate = estimateOperation(args.schema, args.document, operation, args.variableValues ?? {});
      if (!estimate) return;
      if (estimate.upstreamCalls > limits.upstreamCalls) {
        setResultAndStopExecution({
          errors: [tooComplex('upstreamCalls', estimate.upstreamCalls, limits.upstreamCalls)],
        });
      } else if (estimate.cost > limits.cost) {
        setResultAndStopExecution({ errors: [tooComplex('cost', estimate.cost, limits.cost)] });
      }
    },
  };
}
