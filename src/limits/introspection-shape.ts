// The limits of introspection (`__schema` and `__type` and what is under them), as one validation
// rule: its depth (counted from the operation's root, as MAX_DEPTH counts), its aliases (the root
// field's own included), and its answer's JSON size (introspection-size.ts). MAX_DEPTH does not
// count introspection, which is deep by nature; MAX_ALIASES counts its aliases as any others.
// Like every validation rule it must not depend on variables: yoga caches it per document.
import {
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Config } from '../config/index.ts';
import { introspectionAnswerBytes } from './introspection-size.ts';
import { tooComplex } from './too-complex.ts';

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

interface Shape {
  depth: number;
  aliases: number;
}

/** Depth and aliases of selection sets, each worked out once per document (fragments included). */
class ShapeOf {
  private readonly known = new Map<SelectionSetNode, Shape>();
  private readonly visiting = new Set<string>();

  constructor(private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>) {}

  of(selectionSet: SelectionSetNode | undefined): Shape {
    if (!selectionSet) return { depth: 0, aliases: 0 };
    const known = this.known.get(selectionSet);
    if (known) return known;
    const shape = { depth: 0, aliases: 0 };
    for (const selection of selectionSet.selections) {
      let inner: Shape;
      if (selection.kind === Kind.FIELD) {
        inner = this.ofField(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = this.of(selection.selectionSet);
      } else {
        const fragment = this.fragments.get(selection.name.value);
        // A fragment cycle is reported by graphql's own NoFragmentCycles rule.
        if (!fragment || this.visiting.has(fragment.name.value)) continue;
        this.visiting.add(fragment.name.value);
        inner = this.of(fragment.selectionSet);
        this.visiting.delete(fragment.name.value);
      }
      shape.depth = Math.max(shape.depth, inner.depth);
      shape.aliases += inner.aliases;
    }
    this.known.set(selectionSet, shape);
    return shape;
  }

  ofField(field: FieldNode): Shape {
    const under = this.of(field.selectionSet);
    return { depth: 1 + under.depth, aliases: under.aliases + (field.alias ? 1 : 0) };
  }
}

/** The operation's root fields that introspect, through fragments at its root. */
function introspectionRoots(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  visiting = new Set<string>(),
): FieldNode[] {
  const found: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (INTROSPECTION_ROOTS.has(selection.name.value)) found.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      found.push(...introspectionRoots(selection.selectionSet, fragments, visiting));
    } else {
      const fragment = fragments.get(selection.name.value);
      if (!fragment || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      found.push(...introspectionRoots(fragment.selectionSet, fragments, visiting));
      visiting.delete(fragment.name.value);
    }
  }
  return found;
}

export function introspectionLimitsRule(limits: Config['limits']['introspection']) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const shapes = new ShapeOf(fragments);
    return {
      OperationDefinition(operation) {
        const roots = introspectionRoots(operation.selectionSet, fragments);
        if (roots.length === 0) return;
        const each = roots.map((root) => shapes.ofField(root));
        const depth = Math.max(...each.map((s) => s.depth));
        const aliases = each.reduce((sum, s) => sum + s.aliases, 0);
        if (depth > limits.depth) context.reportError(tooComplex('introspectionDepth', depth, limits.depth));
        if (aliases > limits.aliases) {
          context.reportError(tooComplex('introspectionAliases', aliases, limits.aliases));
        }
        const bytes = introspectionAnswerBytes(context.getSchema(), roots, fragments, limits.bytes);
        if (bytes > limits.bytes) context.reportError(tooComplex('introspectionBytes', bytes, limits.bytes));
      },
    };
  };
}
