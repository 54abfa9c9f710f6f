import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defaultFieldResolver, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { unlistedBreakingChanges } from '../src/schema/breaking-changes.ts';
import { printedSchema, schema } from '../src/schema/index.ts';

describe('schema.graphql', () => {
  it('is what the builder prints (npm run schema:print)', () => {
    expect(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
  });

  it('serves every item of ../shared/schema-contract.graphql and schema-contract-hog-functions.graphql', () => {
    const out = execFileSync(
      'node',
      [
        '../shared/tools/check-contract.mjs',
        '--with',
        'schema-contract-hog-functions.graphql',
        'schema.graphql',
      ],
      {
        cwd: new URL('..', import.meta.url),
        encoding: 'utf8',
      },
    );
    const [, served, total] = /contract: (\d+) of (\d+) items served/.exec(out) ?? [];
    expect(Number(total)).toBeGreaterThan(350);
    expect(served).toBe(total);
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

  it('passes on this repository', () => {
    const out = execFileSync('node', ['--import', 'tsx', 'src/schema/breaking-changes.ts'], {
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
