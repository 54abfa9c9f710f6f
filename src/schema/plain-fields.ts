// Fields that read a property of their parent, left without a resolver. Pothos gives every
// exposed field graphql's defaultFieldResolver and every Relay edge's `node` a `(edge) =>
// edge.node`; graphql-js runs a field without a resolver just the same, but graphql-jit compiles
// such a field to a property read where it calls a resolver function otherwise (each call with
// its own error and promise checks). A page of 100 configs read four exposed fields and the edge's
// node of each: 500 calls an operation, ~2 % of its CPU (npm run bench, --cpu-prof).
import { defaultFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';

/** Drops the resolvers that only read a property; the schema is changed in place and returned. */
export function readPlainFieldsInline(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const fields = type.getFields();
    // A Relay edge (plugin-relay's edgeObject): `node` and `cursor`, each its property.
    const isEdge = type.name.endsWith('Edge') && 'node' in fields && 'cursor' in fields;
    for (const field of Object.values(fields)) {
      // The default resolver calls a property that is a function; no record holds one.
      if (field.resolve === defaultFieldResolver || (isEdge && field.name === 'node'))
        field.resolve = undefined;
    }
  }
  return schema;
}
