// graphql-codegen (its typescript plugin, as docs/clients.md configures it: enumsAsTypes) over the
// printed schema: each closed set's typed field (`statusValue`, `intervalValue`, …) comes out as a
// union of its values with 'UNKNOWN', and the raw field beside it stays a string.
import { readFileSync } from 'node:fs';
import { codegen } from '@graphql-codegen/core';
import * as typescript from '@graphql-codegen/typescript';
import { buildSchema, parse, printSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

const SDL = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

describe('graphql-codegen over the typed values', () => {
  let output: string;
  beforeAll(async () => {
    output = await codegen({
      schema: parse(printSchema(buildSchema(SDL))),
      documents: [],
      filename: 'types.ts',
      config: { enumsAsTypes: true },
      plugins: [{ typescript: {} }],
      pluginMap: { typescript },
    });
  });

  it('makes each closed set a union with UNKNOWN', () => {
    for (const name of [
      'BatchExportRunStatus',
      'BatchExportInterval',
      'HogFunctionType',
      'HogFunctionLogLevel',
    ]) {
      const union = new RegExp(`export type ${name} =([^;]+);`).exec(output)?.[1] ?? '';
      expect(union, name).toContain("'UNKNOWN'");
      expect(union.split('|').length, name).toBeGreaterThan(2);
    }
    expect(/export type BatchExportRunStatus =[^;]*'COMPLETED'/.test(output)).toBe(true);
  });

  it('types the typed field as the union and keeps the raw field a string', () => {
    const run = /export type BatchExportRun = Node & \{([^}]+)\}/.exec(output)?.[1] ?? '';
    expect(run).toMatch(/statusValue: BatchExportRunStatus;/);
    expect(run).toMatch(/status: Scalars\['String'\]\['output'\];/);
  });
});
