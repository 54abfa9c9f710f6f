// Errors about part of a field whose answer still stands: Project.destinations lists the kinds
// the key may read and reports the kind it may not as an error with the connection's path and
// the `kind` (GraphQL lets a field answer or fail, not both, so the resolver records the error on
// the context and this plugin adds it to the answer's `errors`). In an incremental or live
// answer, each payload carries those recorded since the last.
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

interface WithPartialErrors {
  partialErrors?: GraphQLError[];
}

function withPending(result: ExecutionResult, pending: GraphQLError[] | undefined): ExecutionResult | null {
  if (!pending?.length) return null;
  const added = pending.splice(0);
  return { ...result, errors: [...(result.errors ?? []), ...added] };
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
                const changed = withPending(next as ExecutionResult, context.partialErrors);
                if (changed) setNext(changed);
              },
            };
          }
          const changed = withPending(result as ExecutionResult, context.partialErrors);
          if (changed) setResult(changed);
          return undefined;
        },
      };
    },
  };
}
