// What a field's selection asks for, read from the document before resolving it: the loaders
// choose how to read configs by whether a field that list answers leave out is wanted.
import { type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** Fields a list answer may not carry (PostHog leaves plugin_info out of lists). */
export const FIELDS_LISTS_LACK = new Set(['pluginInfo']);

/** Whether `selectionSet`, through fragments and at any depth, selects one of `names`. */
export function selects(
  selectionSet: SelectionSetNode | undefined,
  names: ReadonlySet<string>,
  fragments: Record<string, FragmentDefinitionNode> | ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): boolean {
  const fragment = (name: string) =>
    fragments instanceof Map
      ? fragments.get(name)
      : (fragments as Record<string, FragmentDefinitionNode>)[name];
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (names.has(selection.name.value) || selects(selection.selectionSet, names, fragments, seen))
        return true;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (selects(selection.selectionSet, names, fragments, seen)) return true;
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      if (selects(fragment(selection.name.value)?.selectionSet, names, fragments, seen)) return true;
    }
  }
  return false;
}

/** Whether configs under this field can come from list pages (no field lists leave out is selected). */
export const listAnswersSuffice = (info: GraphQLResolveInfo) =>
  !info.fieldNodes.some((node) => selects(node.selectionSet, FIELDS_LISTS_LACK, info.fragments));
