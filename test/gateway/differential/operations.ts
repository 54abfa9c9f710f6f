// Random GraphQL operations over the gateway's own schema, for the differential test: fields and
// arguments as the schema has them, aliases, fragments (inline and named, on abstract types too),
// variables given, left out, null and defaulted, @include/@skip, and arguments that make nested
// fields fail (unknown ids, projects of another organisation, bad cursors).
import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
} from 'graphql';
import { configId, projectGlobalId } from '../../support/harness.ts';

const HOG_FUNCTION_1 = '018f0a5e-0007-7000-8000-000000000001';
const hogFunctionGlobalId = (projectId: string, uuid: string) =>
  Buffer.from(`HogFunction:${projectId}:${uuid}`).toString('base64');

export interface GeneratedOperation {
  query: string;
  variables: Record<string, unknown>;
  key: string;
}

type Gen = fc.GeneratorValue;

/** Plausible values by argument or input field name: hits, misses and refusals. */
const VALUES: Record<string, unknown[]> = {
  projectId: ['1', '2', '@current', '3', 'x'],
  databaseId: [1, 2, 3, 999],
  plugin: [1, 2, 999],
  first: [0, 1, 2, 3, null],
  last: [1, 2, null],
  after: ['bad', null],
  before: ['bad', null],
  id: [
    configId('1', 1),
    configId('1', 2),
    configId('1', 3),
    projectGlobalId('1'),
    configId('3', 1),
    hogFunctionGlobalId('1', HOG_FUNCTION_1),
    'bad',
  ],
  ids: [[configId('1', 1), projectGlobalId('2')], [configId('1', 999), 'bad'], []],
  scope: ['PluginConfig', 'Team', null],
  itemId: ['1', '2', null],
  userId: [1, null],
  unreadOnly: [true, false],
  name: ['Renamed', null],
  description: ['About', null],
  enabled: [true, false, null],
  order: [1, 5],
  deleted: [false],
  config: [{ s3BucketName: 'b' }],
  filters: [{ events: [] }],
  clientMutationId: ['m1', null],
  type: ['Export historical events', 'destination', 'nope'],
  // Today's PostHog (posthog-2026): its seeded hog functions, a miss and a malformed uuid.
  uuid: [HOG_FUNCTION_1, '018f0a5e-0007-7000-8000-000000000002', '018f0a5e-0007-7000-8000-0000000000ff', 'x'],
  types: [['destination'], ['destination', 'legacy_destination'], [], null],
  search: ['Slack', 'export', ' ', null],
  templateId: ['template-slack', 'template-nope', null],
  hog: ['return event', null],
  payload: [{ dateFrom: '2025-01-01' }, null],
  operation: ['start', null],
  bookmark: ['2025-01-01T00:00:00Z', null],
};

const BY_TYPE: Record<string, unknown[]> = {
  String: ['x'],
  Int: [1],
  Float: [0.5],
  Boolean: [true, false],
  ID: [configId('1', 1)],
  JSON: [{ a: 1 }],
  DateTime: ['2025-01-01T00:00:00Z'],
};

class Writer {
  private count = 0;
  readonly definitions: string[] = [];
  readonly variables: Record<string, unknown> = {};
  readonly fragments: string[] = [];

  constructor(readonly g: Gen) {}

  next(prefix: string) {
    return `${prefix}${this.count++}`;
  }

  /** Unbiased: fast-check otherwise favours the ends of a range (0 every few draws). */
  chance(p: number): boolean {
    return this.g(() => fc.noBias(fc.integer({ min: 0, max: 999 }))) < p * 1000;
  }

  /** By index: fast-check compares constants, and schema objects are cyclic. */
  pick<T>(values: readonly T[]): T {
    return values[this.g(() => fc.noBias(fc.integer({ min: 0, max: values.length - 1 })))]!;
  }
}

function valueFor(w: Writer, name: string, type: GraphQLInputType): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const given = VALUES[name];
    if (given) return w.pick(given.filter((v) => v !== null || !isNonNullType(type)));
    return [valueFor(w, name, nullable.ofType)];
  }
  if (isInputObjectType(nullable)) return null; // written as a literal by objectLiteral
  const pool = (VALUES[name] ?? BY_TYPE[(nullable as GraphQLNamedType).name] ?? ['x']).filter(
    (v) => v !== null || !isNonNullType(type),
  );
  if (isEnumType(nullable)) return w.pick(nullable.getValues().map((v) => v.value));
  return w.pick(pool);
}

const literal = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as object)
      .map(([k, v]) => `${k}: ${literal(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
};

/** An argument's or input field's value as written in the document: a literal or a variable. */
function argumentValue(w: Writer, name: string, type: GraphQLInputType): string {
  const nullable = getNullableType(type);
  if (isInputObjectType(nullable)) {
    if (w.chance(0.25)) return variable(w, name, type);
    return objectLiteral(w, Object.values(nullable.getFields()));
  }
  if (isListType(nullable) && isInputObjectType(getNullableType(nullable.ofType))) {
    const item = getNullableType(nullable.ofType);
    if (isInputObjectType(item)) return `[${objectLiteral(w, Object.values(item.getFields()))}]`;
  }
  // A JSON literal holding a variable: graphql-jit parsed such literals without variables.
  if ((nullable as GraphQLNamedType).name === 'JSON' && w.chance(0.5)) {
    return `{events: [${variable(w, 'name', getStringType())}]}`;
  }
  if (w.chance(0.4)) return variable(w, name, type);
  return literal(valueFor(w, name, type));
}

/** `{a: …, b: $v}`: required fields always, optional ones half the time. */
function objectLiteral(w: Writer, fields: GraphQLInputField[]): string {
  const parts: string[] = [];
  for (const field of fields) {
    if (!isNonNullType(field.type) && !w.chance(0.5)) continue;
    parts.push(`${field.name}: ${argumentValue(w, field.name, field.type)}`);
  }
  return `{${parts.join(', ')}}`;
}

/** A variable for `type`: given, given null, left out, or left to a default. */
function variable(w: Writer, name: string, type: GraphQLInputType): string {
  const variableName = w.next(`v_${name}_`);
  const isInputObject = isInputObjectType(getNullableType(type));
  const value = isInputObject ? inputObjectValue(w, type) : valueFor(w, name, type);
  const mode = w.pick(['given', 'given', 'null', 'absent', 'absent', 'default'] as const);
  let definition = `$${variableName}: ${type}`;
  if (mode === 'default' && !isInputObject) definition += ` = ${literal(value)}`;
  w.definitions.push(definition);
  if (mode === 'given' || (mode === 'default' && isInputObject)) w.variables[variableName] = value;
  if (mode === 'null') w.variables[variableName] = null;
  return `$${variableName}`;
}

/** A whole input object as a variable's JSON value. */
function inputObjectValue(w: Writer, type: GraphQLInputType): unknown {
  const object = getNullableType(type);
  if (!isInputObjectType(object)) return valueFor(w, 'value', type);
  const value: Record<string, unknown> = {};
  for (const field of Object.values(object.getFields())) {
    if (!isNonNullType(field.type) && !w.chance(0.5)) continue;
    const fieldType = getNullableType(field.type);
    value[field.name] = isInputObjectType(fieldType)
      ? inputObjectValue(w, field.type)
      : isListType(fieldType) && isInputObjectType(getNullableType(fieldType.ofType))
        ? [inputObjectValue(w, fieldType.ofType)]
        : valueFor(w, field.name, field.type);
  }
  return value;
}

function argumentsOf(w: Writer, args: readonly GraphQLArgument[]): string {
  const parts: string[] = [];
  for (const arg of args) {
    if (!isNonNullType(arg.type) && !w.chance(0.5)) continue;
    parts.push(`${arg.name}: ${argumentValue(w, arg.name, arg.type)}`);
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

function directives(w: Writer): string {
  if (!w.chance(0.15)) return '';
  const which = w.pick(['include', 'skip'] as const);
  const condition = w.chance(0.5) ? String(w.chance(0.5)) : variable(w, 'if', getIfType());
  return ` @${which}(if: ${condition})`;
}

let ifType: GraphQLInputType;
const getIfType = () => ifType;
let stringType: GraphQLInputType;
const getStringType = () => stringType;

function field(
  w: Writer,
  schema: GraphQLSchema,
  f: GraphQLField<unknown, unknown>,
  depth: number,
): string | null {
  const named = getNamedType(f.type);
  let selection = '';
  if (!isLeafType(named)) {
    if (depth <= 0) return null;
    selection = ` ${selectionSet(w, schema, named, depth - 1)}`;
  }
  const alias = w.chance(0.15) ? `${w.next('a')}: ` : '';
  return `${alias}${f.name}${argumentsOf(w, f.args)}${directives(w)}${selection}`;
}

function selectionSet(w: Writer, schema: GraphQLSchema, type: GraphQLNamedType, depth: number): string {
  if (isAbstractType(type)) {
    const parts = ['__typename'];
    for (const possible of schema.getPossibleTypes(type)) {
      if (w.chance(0.6)) parts.push(`... on ${possible.name} ${selectionSet(w, schema, possible, depth)}`);
    }
    return `{ ${parts.join(' ')} }`;
  }
  const object = type as GraphQLObjectType;
  const fields = Object.values(object.getFields()).filter((f) => !f.deprecationReason);
  const parts: string[] = [];
  const wanted = w.pick([1, 2, 3]);
  for (let i = 0; i < wanted; i++) {
    const written = field(w, schema, w.pick(fields), depth);
    if (written === null) continue;
    const wrap = w.pick([
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'named',
      'inline',
    ] as const);
    if (wrap === 'named') {
      const name = w.next('F');
      w.fragments.push(`fragment ${name} on ${object.name} { ${written} }`);
      parts.push(`...${name}`);
    } else if (wrap === 'inline') {
      parts.push(`... on ${object.name}${directives(w)} { ${written} }`);
    } else {
      parts.push(written);
    }
  }
  if (parts.length === 0) parts.push('__typename');
  return `{ ${parts.join(' ')} }`;
}

/** One operation: a query of one to three root fields, or one mutation. */
export function operationOver(schema: GraphQLSchema) {
  const booleanIf = schema.getDirective('include')!.args[0]!.type;
  return fc.gen().map((g) => {
    ifType = booleanIf;
    stringType = schema.getType('String') as GraphQLInputType;
    const w = new Writer(g);
    const mutation = w.chance(0.4);
    const root = mutation ? schema.getMutationType()! : schema.getQueryType()!;
    const roots = Object.values(root.getFields());
    const count = mutation ? 1 : w.pick([1, 2, 3]);
    const parts: string[] = [];
    for (let i = 0; i < count; i++) {
      const written = field(w, schema, w.pick(roots), 3);
      if (written) parts.push(i > 0 ? `r${i}: ${written}` : written);
    }
    const head = w.definitions.length ? `(${w.definitions.join(', ')})` : '';
    const query = [
      `${mutation ? 'mutation' : 'query'} Generated${head} { ${parts.join(' ')} }`,
      ...w.fragments,
    ].join('\n');
    const key = w.pick(['phx_full', 'phx_full', 'phx_full', 'phx_read', 'phx_legacy']);
    return { query, variables: w.variables, key } satisfies GeneratedOperation;
  });
}
