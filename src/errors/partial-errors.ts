// Errors about part of a field whose answer still stands: Project.destinations lists the kinds
// the key may read and reports the kind it may not as an error with the connection's path and
// the `kind` (GraphQL lets a field answer or fail, not both, so the resolver records the error on
// the context and this plugin adds it to the answer's `errors`). In an incremental or live
// answer, each payload carries those recorded since the last. Warnings (answer-warnings.ts) go
// to the answer's `extensions.warnings` the same way.
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type AnswerWarning, type RouteWarnings, takeWarnings } from './answer-warnings.ts';
import type { StaleAnswers } from './stale-answers.ts';

interface WithPartialErrors {
  partialErrors?: GraphQLError[];
  /** The round's UPSTREAM_DEPRECATED warnings (context.ts). */
  routeWarnings?: RouteWarnings;
  /** The round's answers served from what was kept (context.ts): `extensions.stale`. */
  staleAnswers?: StaleAnswers;
}

function withPending(
  result: ExecutionResult,
  pending: GraphQLError[] | undefined,
  context: WithPartialErrors,
): ExecutionResult | null {
  const warnings = takeWarnings(context);
  const upstream = context.routeWarnings?.pending;
  if (upstream?.length) warnings.push(...upstream.splice(0));
  const stale = context.staleAnswers?.take() ?? [];
  if (!pending?.length && warnings.length === 0 && stale.length === 0) return null;
  const added = pending?.splice(0) ?? [];
  const changed: ExecutionResult = added.length
    ? { ...result, errors: [...(result.errors ?? []), ...added] }
    : { ...result };
  if (warnings.length) {
    const before = (result.extensions?.warnings as AnswerWarning[] | undefined) ?? [];
    changed.extensions = { ...result.extensions, warnings: [...before, ...warnings] };
  }
  if (stale.length) changed.extensions = { ...changed.extensions, stale };
  return changed;
}

export function usePartialErrors(): Plugin {
  return {
    onExecute({ args }) {
      const context = args.contextValue as WithPartialErrors;
      return {
        onExecuteDone({ result, setResult }) {
          if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
            return {
              onNext({ result: next, setResult: setNext }) {
                // The context's list is renewed for each round of live work: read it each time.
                const changed = withPending(next as ExecutionResult, context.partialErrors, context);
                if (changed) setNext(changed);
              },
            };
          }
          const changed = withPending(result as ExecutionResult, context.partialErrors, context);
          if (changed) setResult(changed);
          return undefined;
        },
      };
    },
  };
}
