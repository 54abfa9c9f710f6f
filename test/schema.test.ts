import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  defaultFieldResolver,
  type GraphQLObjectType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, schema } from '../src/schema/index.ts';
import { scopesOf } from '../src/schema/scopes.ts';
import { unlistedBreakingChanges } from '../tools/breaking-changes.ts';
import { scopesDoc } from '../tools/scopes-doc.ts';

describe('schema.graphql', () => {
  it('is what the builder prints (npm run schema:print)', () => {
    expect(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
  });

  it('describes every type, field, argument and input field in its own words', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
        continue;
      if (!type.description) missing.push(type.name);
      if (!('getFields' in type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

/** Every field of every object, interface and input type, as `Type.field` with its description. */
function everyField() {
  const fields: { name: string; field: string; description: string }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields()))
      fields.push({
        name: `${type.name}.${field.name}`,
        field: field.name,
        description: field.description ?? '',
      });
  }
  return fields;
}

/**
 * The values of scopes.ts's `Scope` (the PostHog scopes the gateway's calls need, as PostHog's
 * posthog/scopes.py spells them), read from its source: a type has no value to import.
 */
function scopeTypeValues(): Set<string> {
  const source = readFileSync(new URL('../src/schema/scopes.ts', import.meta.url), 'utf8');
  const union = /export type Scope =([^;]+);/.exec(source)?.[1] ?? '';
  return new Set([...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!));
}

describe('descriptions a user can act on', () => {
  // Relay's protocol fields read the same on every connection, edge and payload; everything else
  // says what it is for its own type.
  const PROTOCOL_FIELDS = new Set(['clientMutationId', 'cursor', 'pageInfo']);
  const FILLER = /^(Its|The) [a-z ]{1,20}\.$/;

  it('no two fields share one, but for Relay’s protocol fields', () => {
    const byDescription = new Map<string, string[]>();
    for (const { name, field, description } of everyField()) {
      if (PROTOCOL_FIELDS.has(field)) continue;
      byDescription.set(description, [...(byDescription.get(description) ?? []), name]);
    }
    expect([...byDescription.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it('none is filler such as "Its mappings."', () => {
    const filler: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (type.description && FILLER.test(type.description)) filler.push(type.name);
      if (!('getFields' in type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.description && FILLER.test(field.description)) filler.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : [])
          if (arg.description && FILLER.test(arg.description))
            filler.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    expect(filler).toEqual([]);
  });

  it('Query, Mutation and Project say what they hold today', () => {
    const query = schema.getQueryType()!.description!;
    for (const thing of [
      'hog functions',
      'hog function templates',
      'destination configs',
      'destinations',
      'activity log',
    ])
      expect(query).toContain(thing);
    expect(schema.getMutationType()!.description).toMatch(/hog functions.*destination configs/s);
    expect(schema.getSubscriptionType()!.description).toContain('activityAdded');
    const project = schema.getType('Project')!.description!;
    for (const thing of [
      'hog functions',
      'hog function templates',
      'destination configs',
      'destinations',
      'activity log',
    ])
      expect(project).toContain(thing);
  });
});

describe('scopes (docs/scopes.md)', () => {
  const fieldsOf = (type: string) => Object.values((schema.getType(type) as GraphQLObjectType).getFields());

  it('docs/scopes.md is what the builder prints (npm run schema:print)', () => {
    expect(readFileSync(new URL('../docs/scopes.md', import.meta.url), 'utf8')).toBe(scopesDoc(schema));
  });

  it('every Query, Mutation and Subscription field, and every Project field that calls, names its scopes', () => {
    // `project` asks nothing itself; node and nodes need the read scope of the id's type, said in
    // words; `viewer`'s read (the key reading itself) needs no scope, said in words.
    const inWords = new Set(['Query.project', 'Query.node', 'Query.nodes', 'Query.viewer']);
    const missing: string[] = [];
    for (const type of ['Query', 'Mutation', 'Subscription'])
      for (const field of fieldsOf(type)) {
        const name = `${type}.${field.name}`;
        if (!inWords.has(name) && scopesOf(field.description).length === 0) missing.push(name);
      }
    for (const field of fieldsOf('Project'))
      if (!['id', 'projectId'].includes(field.name) && scopesOf(field.description).length === 0)
        missing.push(`Project.${field.name}`);
    expect(missing).toEqual([]);
    const query = Object.fromEntries(fieldsOf('Query').map((f) => [f.name, f.description ?? '']));
    for (const name of ['node', 'nodes'])
      for (const scope of ['project:read', 'plugin:read', 'hog_function:read'])
        expect(query[name]).toContain(scope);
    expect(query.project).toMatch(/needs no scope/);
  });

  it('a mutation names a write scope, and every scope named is one PostHog defines', () => {
    const known = scopeTypeValues();
    expect(known.size).toBeGreaterThanOrEqual(6);
    for (const scope of known) expect(scope).toMatch(/^[a-z_]+:(read|write)$/);
    const unknown = everyField().flatMap(({ name, description }) =>
      scopesOf(description)
        .filter((scope) => !known.has(scope))
        .map((scope) => `${name}: ${scope}`),
    );
    expect(unknown).toEqual([]);
    for (const field of fieldsOf('Mutation')) {
      if (field.name === 'bookmarkActivityNotification') continue; // PostHog asks activity_log:read of it
      expect(
        scopesOf(field.description).some((s) => s.endsWith(':write')),
        field.name,
      ).toBe(true);
    }
  });
});

describe('the breaking-change check (npm run schema:breaking)', () => {
  const BEFORE = 'type Query { project: Project }\ntype Project { id: ID! name: String old: String }';

  it('fails on a removed field unless CHANGELOG.md names it', () => {
    const after = 'type Query { project: Project }\ntype Project { id: ID! name: String }';
    expect(unlistedBreakingChanges(BEFORE, after, '# Changelog\n')).toEqual(['Project.old was removed.']);
    expect(unlistedBreakingChanges(BEFORE, after, '- Removed `Project.old`.')).toEqual([]);
  });

  it('passes a deprecation and an addition', () => {
    const after =
      'type Query { project: Project }\ntype Project { id: ID! name: String old: String @deprecated(reason: "x") added: Int }';
    expect(unlistedBreakingChanges(BEFORE, after, '')).toEqual([]);
  });

  it('fails on a value added to an enum unless CHANGELOG.md names it as `Enum.VALUE`', () => {
    const enumBefore =
      'type Query { run: Run }\ntype Run { statusValue: RunStatus! }\nenum RunStatus { DONE UNKNOWN }';
    const after = enumBefore.replace('DONE UNKNOWN', 'DONE PAUSED UNKNOWN');
    expect(unlistedBreakingChanges(enumBefore, after, '# Changelog\n')).toEqual([
      'PAUSED was added to enum type RunStatus.',
    ]);
    expect(unlistedBreakingChanges(enumBefore, after, '- `PAUSED`')).toHaveLength(1);
    expect(unlistedBreakingChanges(enumBefore, after, '- Added `RunStatus.PAUSED`.')).toEqual([]);
    // A removed value is breaking, and named the same way.
    expect(unlistedBreakingChanges(after, enumBefore, '- Removed `RunStatus.PAUSED`.')).toEqual([]);
    // A new enum is an addition, not a change to name.
    expect(unlistedBreakingChanges(BEFORE, `${BEFORE}\nenum Added { ONE UNKNOWN }`, '')).toEqual([]);
  });

  it('passes on this repository', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'tools/breaking-changes.ts'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    });
    expect(out).toMatch(/^schema\.graphql: no (unlisted breaking change|earlier version to compare with)/);
  });
});

describe('fields that read a property', () => {
  // graphql-jit compiles a field without a resolver to a property read, and calls a function
  // (with its checks) for any other: src/schema/plain-fields.ts.
  it('have no resolver: exposed fields and every edge’s node', () => {
    const fields = (type: string) => (schema.getType(type) as GraphQLObjectType).getFields();
    for (const name of ['name', 'enabled', 'order', 'plugin', 'databaseId'])
      expect(fields('DestinationConfig')[name]!.resolve, name).toBeUndefined();
    expect(fields('DestinationConfig').id!.resolve).toBeTypeOf('function');
    const edges = Object.values(schema.getTypeMap()).filter((t) => t.name.endsWith('Edge'));
    expect(edges.length).toBeGreaterThanOrEqual(6);
    for (const edge of edges)
      expect((edge as GraphQLObjectType).getFields().node!.resolve, edge.name).toBeUndefined();
    for (const type of ['DestinationConfig', 'HogFunction', 'ActivityLogEntry', 'ActivityUser'])
      expect(Object.values(fields(type)).filter((f) => f.resolve === defaultFieldResolver)).toEqual([]);
  });

  it('keep a resolver where the property may be a promise (a mutation payload)', () => {
    const payload = (schema.getType('UpdateDestinationConfigPayload') as GraphQLObjectType).getFields();
    expect(payload.destinationConfig!.resolve).toBeTypeOf('function');
  });
});
