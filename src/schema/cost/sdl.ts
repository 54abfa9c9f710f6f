// The prices fields declare (price.ts), as schema.graphql shows them: the IBM GraphQL cost
// directives (directives.ts), @cost(weight:) with the most upstream requests a field makes
// itself, and @listSize on a list: a connection sized by `first`/`last`, or a bounded list.
import {
  type ConstDirectiveNode,
  type ConstValueNode,
  type GraphQLField,
  type GraphQLSchema,
  isObjectType,
  Kind,
  parse,
  print,
} from 'graphql';
import { DEFAULT_PAGE_SIZE } from '../connections/connection.ts';
import { type FieldPrice, priceOf } from './price.ts';

type Value = number | boolean | string | string[];

const value = (v: Value): ConstValueNode => {
  if (Array.isArray(v)) return { kind: Kind.LIST, values: v.map((s) => ({ kind: Kind.STRING, value: s })) };
  if (typeof v === 'string') return { kind: Kind.STRING, value: v };
  if (typeof v === 'boolean') return { kind: Kind.BOOLEAN, value: v };
  return { kind: Kind.INT, value: String(v) };
};

const directive = (name: string, args: Record<string, Value>): ConstDirectiveNode => ({
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: name },
  arguments: Object.entries(args).map(([arg, v]) => ({
    kind: Kind.ARGUMENT,
    name: { kind: Kind.NAME, value: arg },
    value: value(v),
  })),
});

/** The directives that state a field's price: @listSize for a list, @cost for upstream calls. */
export function costDirectives(
  field: GraphQLField<unknown, unknown>,
  price: FieldPrice,
): ConstDirectiveNode[] {
  const directives: ConstDirectiveNode[] = [];
  const list = price.list;
  if (list !== undefined && 'connection' in list) {
    const slicing = ['first', 'last'].filter((name) => field.args.some((arg) => arg.name === name));
    directives.push(
      directive('listSize', {
        assumedSize: DEFAULT_PAGE_SIZE,
        slicingArguments: slicing,
        sizedFields: ['edges'],
        requireOneSlicingArgument: false,
      }),
    );
  } else if (list !== undefined && 'assumed' in list) {
    directives.push(directive('listSize', { assumedSize: list.assumed }));
  }
  // The IBM specification's weight is a string.
  if (price.worst > 0) directives.push(directive('cost', { weight: String(price.worst) }));
  return directives;
}

/**
 * `sdl` (printSchema's text of `schema`) with each priced field's directives after its type:
 * inserted where the parsed field ends, so that the rest of the text is left as printed.
 */
export function withPrices(schema: GraphQLSchema, sdl: string): string {
  const inserts: { at: number; text: string }[] = [];
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const type = schema.getType(definition.name.value);
    if (!isObjectType(type)) continue;
    for (const node of definition.fields ?? []) {
      const field = type.getFields()[node.name.value];
      const price = field && priceOf(field);
      if (!field || !price || !node.loc) continue;
      const text = costDirectives(field, price)
        .map((d) => ` ${print(d)}`)
        .join('');
      if (text) inserts.push({ at: node.loc.end, text });
    }
  }
  let out = sdl;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at))
    out = out.slice(0, at) + text + out.slice(at);
  return out;
}
