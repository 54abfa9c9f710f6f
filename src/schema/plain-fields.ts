// Fields that read a property of their parent, left without a resolver. Pothos gives every
// exposed field graphql's defaultFieldResolver and every Relay edge's `node` a `(edge) =>
// edge.node`; graphql-js runs a field without a resolver just the same, but graphql-jit compiles
// such a field to a property read where it calls a resolver function otherwise (each call with
// its own error and promise checks). A page of configs read four fields and the edge's node of
// each: five resolver calls a config saved (docs/performance.md).
//
// Only where the property is plain data: graphql-jit's read does not await a promise (it
// serialised one as `{}`), nor call a function as the default resolver does. So only the records
// of upstream/posthog/records.ts (no promise, no method: the types refs.ts makes with recordRef) and the
// edges over them; a mutation payload, whose record may still be on its way, keeps its resolvers.
import { defaultFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import { isRecordType } from './refs.ts';

/** Drops the resolvers that only read a record's property; the schema is changed in place and returned. */
export function readPlainFieldsInline(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    // A Relay edge (connections/connection.ts's Edge): its `node` is a record, read as it is.
    if (type.name.endsWith('Edge') && fields.node && fields.cursor) fields.node.resolve = undefined;
    if (!isRecordType(type.name)) continue;
    for (const field of Object.values(fields)) {
      if (field.resolve === defaultFieldResolver) field.resolve = undefined;
    }
  }
  return schema;
}
