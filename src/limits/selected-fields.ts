// The fields a selection set selects, through inline fragments and fragment spreads, one at a
// time as they come: a caller that stops early (a count past its limit) expands no further.
import { type FieldNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';

export function* selectedFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  visiting = new Set<string>(),
): Generator<FieldNode> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      yield selection;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      yield* selectedFields(selection.selectionSet, fragments, visiting);
    } else {
      const fragment = fragments.get(selection.name.value);
      // A fragment cycle is reported by graphql's own NoFragmentCycles rule.
      if (!fragment || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      yield* selectedFields(fragment.selectionSet, fragments, visiting);
      visiting.delete(fragment.name.value);
    }
  }
}
