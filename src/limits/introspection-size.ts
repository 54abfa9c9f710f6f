// The JSON size of an operation's introspection answer, worked out before anything runs: each
// selection is resolved with graphql-js's own introspection resolvers (pure reads of the schema),
// and the size of one (schema object, selection set) pair is worked out once, so the walk costs
// about the schema's size per selection set, not the answer's size. Counting stops as soon as the
// total passes the limit: the figure is then where it stopped.
//
// An upper bound where the document leaves a choice to its variables or directives: `@skip` and
// `@include` count as included, `includeDeprecated: $v` as true, and `__type(name: $v)` as every
// type of the schema. A field selected twice under one name counts twice.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNullableType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  valueFromAST,
} from 'graphql';
import { selectedFields } from './selected-fields.ts';

/** `"key":` and the comma after the value. */
const keyBytes = (key: string) => key.length + 4;
const NULL_BYTES = 4;

class OverLimit {
  constructor(readonly bytes: number) {}
}

class SizeWalk {
  private spent = 0;
  private readonly sizes = new WeakMap<object, Map<SelectionSetNode, number>>();
  private readonly info: GraphQLResolveInfo;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly limit: number,
  ) {
    this.info = { schema } as GraphQLResolveInfo;
  }

  /** The bytes of the introspection root fields' values and keys; throws OverLimit past the limit. */
  rootFields(fields: readonly FieldNode[]): number {
    for (const field of fields) {
      this.add(keyBytes((field.alias ?? field.name).value));
      const byName = field.name.value === '__type' ? this.typeNamed(field) : this.schema;
      const def = field.name.value === '__type' ? TypeMetaFieldDef : SchemaMetaFieldDef;
      this.value(def.type, byName, field.selectionSet);
    }
    return this.spent;
  }

  /** `__type(name:)`'s type; every type (as a list) when the name is a variable. */
  private typeNamed(field: FieldNode): unknown {
    const name = field.arguments?.find((a) => a.name.value === 'name')?.value;
    if (name?.kind === Kind.STRING) return this.schema.getType(name.value) ?? null;
    return Object.values(this.schema.getTypeMap());
  }

  private add(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.limit) throw new OverLimit(this.spent);
  }

  private value(type: GraphQLOutputType, value: unknown, selectionSet: SelectionSetNode | undefined): void {
    if (value === null || value === undefined) {
      this.add(NULL_BYTES);
      return;
    }
    const nullable = getNullableType(type);
    if (Array.isArray(value)) {
      const itemType = isListType(nullable) ? nullable.ofType : nullable;
      this.add(2 + Math.max(0, value.length - 1));
      for (const item of value) this.value(itemType, item, selectionSet);
    } else if (isObjectType(nullable) && selectionSet) {
      this.object(nullable, value as object, selectionSet);
    } else if (isLeafType(nullable)) {
      this.add(JSON.stringify(nullable.serialize(value))?.length ?? NULL_BYTES);
    }
  }

  private object(type: GraphQLObjectType, value: object, selectionSet: SelectionSetNode): void {
    let bySelection = this.sizes.get(value);
    const known = bySelection?.get(selectionSet);
    if (known !== undefined) {
      this.add(known);
      return;
    }
    const before = this.spent;
    this.add(2);
    const defs = type.getFields();
    for (const field of selectedFields(selectionSet, this.fragments)) {
      this.add(keyBytes((field.alias ?? field.name).value));
      if (field.name.value === '__typename') {
        this.add(type.name.length + 2);
        continue;
      }
      const def = defs[field.name.value];
      // An unknown field is graphql's own validation's to report.
      if (!def) continue;
      const args = this.argumentsOf(field, def.args);
      const resolved = def.resolve
        ? def.resolve(value, args, undefined, this.info)
        : (value as Record<string, unknown>)[def.name];
      this.value(def.type, resolved, field.selectionSet);
    }
    if (!bySelection) {
      bySelection = new Map();
      this.sizes.set(value, bySelection);
    }
    bySelection.set(selectionSet, this.spent - before);
  }

  /** The literal arguments; a variable counts as `true` (includeDeprecated), a default as given. */
  private argumentsOf(field: FieldNode, args: readonly GraphQLArgument[]) {
    const values: Record<string, unknown> = {};
    for (const arg of args) {
      const node = field.arguments?.find((a) => a.name.value === arg.name)?.value;
      if (!node) values[arg.name] = arg.defaultValue;
      else if (node.kind === Kind.VARIABLE) values[arg.name] = true;
      else values[arg.name] = valueFromAST(node, arg.type);
    }
    return values;
  }
}

/**
 * The JSON bytes the introspection root fields `fields` (`__schema`, `__type`) would answer,
 * or, when that is more than `limit`, the count at which it passed the limit.
 */
export function introspectionAnswerBytes(
  schema: GraphQLSchema,
  fields: readonly FieldNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  limit: number,
): number {
  try {
    return new SizeWalk(schema, fragments, limit).rootFields(fields);
  } catch (error) {
    if (error instanceof OverLimit) return error.bytes;
    throw error;
  }
}
