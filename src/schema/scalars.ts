// DateTime passes the upstream's ISO 8601 text through (it carries microseconds a JS Date would
// drop); JSON passes any JSON value through untouched.
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder.ts';

const ISO_8601 = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/;

function parseDateTime(value: unknown): string {
  if (typeof value !== 'string' || !ISO_8601.test(value) || Number.isNaN(Date.parse(value))) {
    throw new GraphQLError(
      `DateTime must be an ISO 8601 date-time with a time zone, such as 2025-01-31T12:00:00Z.`,
      {
        extensions: { code: 'BAD_USER_INPUT' },
      },
    );
  }
  return value;
}

builder.scalarType('DateTime', {
  description:
    'An ISO 8601 date-time with a time zone, as the upstream writes it (e.g. 2025-03-01T08:00:00.123456Z).',
  serialize: (value) => String(value),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

function literalToJson(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      throw new GraphQLError('JSON literals are strings, numbers, booleans, null, lists and objects.', {
        extensions: { code: 'BAD_USER_INPUT' },
      });
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value, passed through as the upstream sends or accepts it.',
  serialize: (value) => value,
  parseValue: (value) => value,
  // Declared with a rest parameter, so that its length is 0: graphql-jit writes a plain-text line
  // to stderr for every literal of a scalar whose parseLiteral declares a second parameter (the
  // variables, which it never passes: jit.ts leaves documents with a variable in such a literal
  // to graphql-js, which does pass them).
  parseLiteral: (...[ast, variables]) => literalToJson(ast, variables),
});
