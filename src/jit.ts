// graphql-jit compiles each document to JavaScript once and runs that instead of graphql-js's
// interpreter: the largest single saving per operation (docs/performance.md). Where it does not
// answer as graphql-js does, found by the tests and the differential test (test/gateway/differential):
// - a non-null variable with a default value (`$projectId: String! = "@current"`) that the
//   request leaves out is reported as missing;
// - a variable that stands as an input object's field (`input: {id: $id, name: $n}`) and is not
//   given becomes `name: null`, where graphql-js leaves `name` out (and a write would then wipe
//   the name): such a request, and only such a request, runs on graphql-js;
// - a variable inside a literal of a custom scalar (`filters: {events: [$e]}`, JSON): graphql-jit
//   parses such a literal once, with no variables, and writes null where the variable stands;
// - @envelop/graphql-jit keeps one compiled query per document, whatever the operationName, so a
//   document holding several operations could run the wrong one;
// - subscriptions, @live queries and @defer/@stream answer in several parts, which only the
//   executor yoga ships with produces;
// - a document longer than MAX_CACHED_TEXT: graphql-jit writes argument literals into the code
//   it compiles with new Function, and V8's compilation cache keeps that source beyond full
//   collections, so long texts would fill memory. A text that long is not cached as parsed
//   either, so it would be compiled for one run.
import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getNullableType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_CACHED_TEXT } from './core/bounded-cache.ts';
import { withExtensions } from './errors/masking.ts';

export function jitCanRun(document: DocumentNode): boolean {
  if ((document.loc?.source.body.length ?? 0) > MAX_CACHED_TEXT) return false;
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

/**
 * The variables, without a default, that stand somewhere inside an input object literal: a
 * request that leaves one of them out must run on graphql-js.
 */
export function variablesInObjectFields(document: DocumentNode): string[] {
  const withDefault = new Set<string>();
  const found = new Set<string>();
  let objectFields = 0;
  visit(document, {
    VariableDefinition(node) {
      if (node.defaultValue !== undefined) withDefault.add(node.variable.name.value);
      // Its own `$name` is no use.
      return false;
    },
    ObjectField: {
      enter: () => {
        objectFields++;
      },
      leave: () => {
        objectFields--;
      },
    },
    Variable(node) {
      if (objectFields > 0 && !withDefault.has(node.name.value)) found.add(node.name.value);
    },
  });
  return [...found];
}

/** Whether a variable stands inside an object or list literal of a scalar type (JSON). */
export function hasVariableInScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let scalarLiterals = 0;
  let found = false;
  // visitWithTypeInfo has entered the node when these run: an object literal's own type is the
  // input type, a list literal's is the parent's (the input type is then its item's).
  const enter = (type: unknown) => {
    if (scalarLiterals > 0 || isScalarType(getNullableType(type as never))) scalarLiterals++;
  };
  const leave = () => {
    if (scalarLiterals > 0) scalarLiterals--;
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      ObjectValue: { enter: () => enter(typeInfo.getInputType()), leave },
      ListValue: { enter: () => enter(typeInfo.getParentInputType()), leave },
      Variable() {
        if (scalarLiterals === 0) return undefined;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}

interface Decision {
  canRun: boolean;
  /** Variables the request must give for the compiled query to answer as graphql-js would. */
  mustBeGiven: string[];
}

/**
 * A compiled query that refuses its variables answers `{errors}` with no `data`, as graphql-js
 * does, but without the `http.status` 400 that graphql-js's refusal carries through yoga: the
 * same request would be 200 on one executor and 400 on the other.
 */
function asRequestErrors(result: ExecutionResult): ExecutionResult {
  if ('data' in result || !result.errors?.length) return result;
  const errors = result.errors.map((error) =>
    error.extensions?.http ? error : withExtensions(error, { ...error.extensions, http: { status: 400 } }),
  );
  return { ...result, errors };
}

export function useJit(): Plugin {
  const compiled = useCompiledExecution();
  return {
    ...compiled,
    onExecute(payload) {
      const enabled = compiled.onExecute?.(payload);
      const done = {
        onExecuteDone({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) {
          if (result && typeof result === 'object' && !(Symbol.asyncIterator in result)) {
            setResult(asRequestErrors(result as ExecutionResult));
          }
        },
      };
      return enabled instanceof Promise ? enabled.then(() => done) : done;
    },
  } as Plugin;
}

function useCompiledExecution(): Plugin {
  const decided = new WeakMap<DocumentNode, Decision>();
  return useGraphQlJit(
    {},
    {
      // A document graphql-jit cannot compile answers its errors as the result; without this it
      // would also write them to stderr, which carries only JSON lines (the operation log).
      onError: () => undefined,
      enableIf: ({ schema, document, variableValues }) => {
        let decision = decided.get(document);
        if (decision === undefined) {
          const canRun = jitCanRun(document) && !hasVariableInScalarLiteral(schema, document);
          decision = { canRun, mustBeGiven: canRun ? variablesInObjectFields(document) : [] };
          decided.set(document, decision);
        }
        if (!decision.canRun) return false;
        for (const name of decision.mustBeGiven) {
          if (!variableValues || !Object.hasOwn(variableValues, name)) return false;
        }
        return true;
      },
    },
  ) as Plugin;
}
