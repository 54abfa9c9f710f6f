// A request without a key the upstream could take (none, or a header without `Bearer`): the
// fields that need the upstream each refuse (upstream/client.ts asks it nothing without a key),
// which said the same UNAUTHENTICATED three or four times in one answer. Here, before execution,
// such a request is marked, and when its answer holds nothing (no field could be answered without
// a key) the answer gets one error for the request, saying how to send the key; the data keeps its
// shape (its nulls). What needs no key still answers: introspection (GraphiQL loads the schema
// before any key is typed), `__typename`, `project(projectId:) { projectId }`, an empty `nodes`.
//
// Decided from the answer rather than from the document: which fields need a key depends on their
// arguments (`Project.id` costs a call for "@current", none for "1"), and only running them knows.
// Without a key that costs no upstream call, so it is the exact answer at no cost.
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { authorizationOf, isMisspeltAuthorization } from '../core/caller-key.ts';
import { isMissingAuthorization, missingAuthorization, misspeltAuthorization } from '../errors/codes.ts';

/** Whether any field holds a value: a scalar, or a list (an empty one too). */
function holdsAnswer(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return true;
  if (typeof value === 'object') return Object.values(value).some(holdsAnswer);
  return true;
}

/** The same refusal, located where it was, with the message a misspelt header needs. */
const asMisspelt = (error: GraphQLError) =>
  new GraphQLError(misspeltAuthorization().message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: error.extensions,
  });

const authorizationHeader = (context: unknown) =>
  (context as { request?: Request }).request?.headers.get('authorization');

export function useKeyRefusal(): Plugin {
  return {
    // Every subscription field needs a key: a misspelt header is refused before it starts.
    onSubscribe({ args, setResultAndStopExecution }) {
      if (isMisspeltAuthorization(authorizationHeader(args.contextValue))) {
        setResultAndStopExecution({ errors: [misspeltAuthorization()] });
      }
    },
    onExecute({ args }) {
      const header = authorizationHeader(args.contextValue);
      if (authorizationOf(header)) return;
      const misspelt = isMisspeltAuthorization(header);
      return {
        onExecuteDone({ result, setResult }) {
          if (!result || Symbol.asyncIterator in result) return;
          const { data, errors } = result as ExecutionResult;
          if (!errors?.length || !errors.some(isMissingAuthorization)) return;
          if (!holdsAnswer(data) && errors.every(isMissingAuthorization)) {
            const refusal = misspelt ? misspeltAuthorization() : missingAuthorization();
            setResult({ ...result, errors: [refusal] } as ExecutionResult);
          } else if (misspelt) {
            const located = errors.map((e) => (isMissingAuthorization(e) ? asMisspelt(e) : e));
            setResult({ ...result, errors: located } as ExecutionResult);
          }
        },
      };
    },
  };
}
