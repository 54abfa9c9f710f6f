// Every field that may call PostHog declares its price where it is defined (cost/price.ts's
// `priced`): the estimator reads nothing else, and a field without one would cost nothing. A
// resolver reaches PostHog only through the request's context (ctx.loaders), so every resolver
// handed the context (three parameters or more, or a rest parameter) must declare a price, `calls:
// 0` when it reads nothing upstream; a property read (Pothos's expose*, or `(record) => …`) need not.
import {
  buildSchema,
  defaultFieldResolver,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { type FieldPrice, priceOf } from '../../src/schema/cost/price.ts';
import { printedSchema, schema } from '../../src/schema/index.ts';

type Field = GraphQLField<unknown, unknown>;

/** The resolver as the schema file wrote it (Pothos wraps it; plain-fields.ts may drop it). */
const resolverOf = (field: Field) => field.extensions?.pothosOriginalResolve as unknown;

/** Whether the resolver is handed the request's context, and so may call upstream. */
function mayCall(field: Field): boolean {
  const resolve = resolverOf(field);
  if (typeof resolve !== 'function' || resolve === defaultFieldResolver) return false;
  return resolve.length === 0 || resolve.length >= 3;
}

/** `Type.field` of every query and mutation field that may call upstream and declares no price. */
function unpricedFields(target: GraphQLSchema, price: (field: Field) => FieldPrice | undefined) {
  const missing: string[] = [];
  for (const type of Object.values(target.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === target.getSubscriptionType()) continue;
    for (const field of Object.values(type.getFields())) {
      const calls = mayCall(field) || type === target.getMutationType();
      if (calls && price(field) === undefined) missing.push(`${type.name}.${field.name}`);
    }
  }
  return missing;
}

const fieldOf = (type: string, name: string): Field => {
  const object = schema.getType(type);
  if (!isObjectType(object)) throw new Error(`${type} is no object type`);
  return object.getFields()[name]!;
};

describe('the price of each field (extensions.cost)', () => {
  it('is declared by every field whose resolver may call upstream, and by every mutation', () => {
    expect(unpricedFields(schema, priceOf)).toEqual([]);
  });

  it('is missed when a field that calls drops its declaration', () => {
    const runs = fieldOf('BatchExport', 'runs');
    expect(mayCall(runs)).toBe(true);
    expect(unpricedFields(schema, (f) => (f === runs ? undefined : priceOf(f)))).toEqual([
      'BatchExport.runs',
    ]);
  });

  it('is not asked of a property read', () => {
    expect(mayCall(fieldOf('BatchExport', 'uuid'))).toBe(false);
    expect(mayCall(fieldOf('BatchExport', 'createdAt'))).toBe(false);
  });

  it('says a Relay connection is one, so that what is under it counts once per item', () => {
    // A function's logs come in one answer whose entries hold no field that calls: one item.
    const ONE_ITEM = new Set(['HogFunction.logs']);
    const wrong: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const target = getNamedType(field.type);
        const connection = isObjectType(target) && 'pageInfo' in target.getFields();
        const list = priceOf(field)?.list;
        const name = `${type.name}.${field.name}`;
        if (connection && ONE_ITEM.has(name)) continue;
        if (connection !== (list !== undefined && 'connection' in list)) wrong.push(name);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('states a worst case no less than its own calls', () => {
    const below: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const price = priceOf(field);
        if (price && typeof price.calls === 'number' && price.worst < price.calls)
          below.push(`${type.name}.${field.name}`);
      }
    }
    expect(below).toEqual([]);
  });

  it('shows in schema.graphql as the IBM cost directives, which the schema defines', () => {
    expect(schema.getDirective('cost')?.args.map((a) => String(a.type))).toEqual(['String!']);
    expect(schema.getDirective('listSize')).toBeDefined();
    const printed = printedSchema();
    // Valid SDL: each use names a directive defined there, with arguments of its types.
    const built = buildSchema(printed);
    const exportType = built.getType('BatchExport');
    if (!isObjectType(exportType)) throw new Error('BatchExport is no object type');
    const shown = exportType.getFields().runs!.astNode!;
    expect(shown.directives?.map((d) => d.name.value)).toEqual(['listSize', 'cost']);
    expect(printed).toContain(
      '): BatchExportRunConnection @listSize(assumedSize: 20, slicingArguments: ["first", "last"], sizedFields: ["edges"], requireOneSlicingArgument: false) @cost(weight: "10")',
    );
  });
});
