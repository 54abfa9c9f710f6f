// Limits on the shape of a document, checked before anything runs: tokens while parsing, depth,
// aliases and directives as validation rules (which yoga caches per document, so they must not
// depend on variables; the cost and upstream-call limits that do are priced by schema/cost/estimate.ts).
import {
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  Lexer,
  parse,
  type SelectionSetNode,
  Source,
  TokenKind,
  type ValidationContext,
} from 'graphql';
import { tooComplex } from './too-complex.ts';

/** Counts a document's tokens, up to a bound (the body-size limit already bounds the text). */
function countTokens(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // A lexing error is the parser's to report; the count so far is the figure.
  }
  return count;
}

/** parse() with graphql's own token limit; over it, QUERY_TOO_COMPLEX with the real count. */
export function parseWithTokenLimit(maxTokens: number) {
  return (source: string | Source, options?: Parameters<typeof parse>[1]): DocumentNode => {
    const text = typeof source === 'string' ? source : source.body;
    try {
      return parse(source, { ...options, maxTokens });
    } catch (error) {
      // graphql 16 words it "more that N tokens".
      if (error instanceof Error && /more th(?:an|at) \d+ tokens/.test(error.message)) {
        throw tooComplex('tokens', countTokens(text), maxTokens);
      }
      throw error;
    }
  };
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

function depthOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  root: boolean,
): number {
  let deepest = 0;
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      // Tools' introspection queries are deep by nature and touch no upstream.
      if (root && INTROSPECTION_ROOTS.has(selection.name.value)) continue;
      deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet, fragments, visiting, false));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, visiting, root));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A fragment cycle is reported by graphql's own NoFragmentCycles rule.
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, visiting, root));
      visiting.delete(name);
    }
  }
  return deepest;
}

export function maxDepthRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument();
    const fragments = new Map(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, fragments, new Set(), true);
        if (depth > limit) context.reportError(tooComplex('depth', depth, limit));
      },
    };
  };
}

/** Counts a node kind across the whole document (fragments included) and reports once. */
function countingRule(
  measure: 'aliases' | 'directives',
  limit: number,
  counts: (visitor: () => void) => ASTVisitor,
) {
  return (context: ValidationContext): ASTVisitor => {
    let count = 0;
    return {
      ...counts(() => {
        count++;
      }),
      Document: {
        leave() {
          if (count > limit) context.reportError(tooComplex(measure, count, limit));
        },
      },
    };
  };
}

export const maxAliasesRule = (limit: number) =>
  countingRule('aliases', limit, (add) => ({
    Field(node) {
      if (node.alias) add();
    },
  }));

export const maxDirectivesRule = (limit: number) =>
  countingRule('directives', limit, (add) => ({ Directive: add }));
