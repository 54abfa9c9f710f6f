// graphql-jit compiles each document to JavaScript once and runs that instead of graphql-js's
// interpreter: the largest single saving per operation (npm run bench). Two things it does not
// do as graphql-js does, found by the tests; documents that would meet them run on graphql-js:
// - a non-null variable with a default value (`$projectId: String! = "@current"`) that the
//   request leaves out is reported as missing;
// - @envelop/graphql-jit keeps one compiled query per document, whatever the operationName, so a
//   document holding several operations could run the wrong one;
// - subscriptions, @live queries and @defer/@stream answer in several parts, which only the
//   executor yoga ships with produces.
import { useGraphQlJit } from '@envelop/graphql-jit';
import { BREAK, type DocumentNode, Kind, type OperationDefinitionNode, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function jitCanRun(document: DocumentNode): boolean {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1 || operations[0]!.operation === 'subscription') return false;
  if (hasIncrementalDirective(document)) return false;
  return !operations[0]!.variableDefinitions?.some(
    (v) => v.type.kind === Kind.NON_NULL_TYPE && v.defaultValue !== undefined,
  );
}

const INCREMENTAL_DIRECTIVES = new Set(['defer', 'stream', 'live']);

function hasIncrementalDirective(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (!INCREMENTAL_DIRECTIVES.has(node.name.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

export function useJit(): Plugin {
  const decided = new WeakMap<DocumentNode, boolean>();
  return useGraphQlJit(
    {},
    {
      enableIf: ({ document }) => {
        let canRun = decided.get(document);
        if (canRun === undefined) {
          canRun = jitCanRun(document);
          decided.set(document, canRun);
        }
        return canRun;
      },
    },
  ) as Plugin;
}
