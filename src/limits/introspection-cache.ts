// An introspection-only query (every root field `__schema`, `__type` or `__typename`) answers
// the same to every caller for as long as the schema is the same: its answer is computed once and
// kept, by the document's text, operation name and variables, in a cache bounded in entries and
// bytes. What the key, its scopes and the upstream say plays no part in such an answer.
//
// Registered last: every other plugin's onExecute and onExecuteDone still runs on a served answer
// (the operation log, metrics, the WebSocket relay), and the answer is served instead of
// executing, so neither executor compiles or runs the document again.
import {
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  getOperationAST,
  Kind,
  type SelectionSetNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { BoundedCache, MAX_CACHED_TEXT } from '../core/bounded-cache.ts';

/** Answers computed and answers served from the cache, in this process (tests read them). */
export const introspectionAnswers = { computed: 0, served: 0 };

const ROOTS = new Set(['__schema', '__type']);

/** Whether every root field introspects (through fragments), and one of them is not `__typename`. */
function introspectsOnly(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  depth = 0,
): { only: boolean; any: boolean } {
  let any = false;
  for (const selection of selectionSet.selections) {
    let inner: { only: boolean; any: boolean };
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      inner = { only: ROOTS.has(name) || name === '__typename', any: ROOTS.has(name) };
    } else {
      const set =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : fragments.get(selection.name.value)?.selectionSet;
      // A fragment cycle or an unknown fragment never got past validation; depth guards anyway.
      inner = set && depth < 8 ? introspectsOnly(set, fragments, depth + 1) : { only: false, any: false };
    }
    if (!inner.only) return { only: false, any };
    any ||= inner.any;
  }
  return { only: true, any };
}

const hasDirective = (document: DocumentNode) => {
  let found = false;
  visit(document, {
    Directive() {
      found = true;
      return BREAK;
    },
  });
  return found;
};

/**
 * For a query of `document` that only introspects, with no directive: the variables it declares
 * (only they are part of the key); null for any other operation.
 */
function cacheableOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): string[] | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query' || hasDirective(document)) return null;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const { only, any } = introspectsOnly(operation.selectionSet, fragments);
  return only && any ? (operation.variableDefinitions ?? []).map((v) => v.variable.name.value) : null;
}

/** The answers held: an answer's objects take about four times its JSON (two bytes a character). */
const answerCache = () =>
  new BoundedCache<ExecutionResult>(
    { maxEntries: 64, maxBytes: 64 * 1024 * 1024, maxItemBytes: 16 * 1024 * 1024 },
    (answer) => 4 * 2 * JSON.stringify(answer).length,
  );

export function useIntrospectionCache(): Plugin {
  const answers = answerCache();
  const decided = new WeakMap<DocumentNode, Map<string, string[] | null>>();
  const declaredIfCacheable = (document: DocumentNode, operationName: string | null | undefined) => {
    const name = operationName ?? '';
    let byName = decided.get(document);
    if (!byName) {
      byName = new Map();
      decided.set(document, byName);
    }
    let found = byName.get(name);
    if (found === undefined) {
      found = cacheableOperation(document, operationName);
      byName.set(name, found);
    }
    return found;
  };
  return {
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const text = args.document.loc?.source.body;
      if (!text || text.length > MAX_CACHED_TEXT) return;
      const declared = declaredIfCacheable(args.document, args.operationName);
      if (!declared) return;
      const given = args.variableValues ?? {};
      const key = JSON.stringify([
        text,
        args.operationName ?? null,
        declared.map((name) => given[name] ?? null),
      ]);
      const held = answers.get(key);
      if (held) {
        introspectionAnswers.served++;
        // A copy: what a later hook sets on the answer's top level stays on this request's.
        setResultAndStopExecution({ ...held });
        return;
      }
      setExecuteFn(async (executionArgs) => {
        const result = (await executeFn(executionArgs)) as ExecutionResult;
        introspectionAnswers.computed++;
        if (!result.errors?.length && !(Symbol.asyncIterator in result)) answers.set(key, { ...result });
        return result;
      });
    },
  };
}
