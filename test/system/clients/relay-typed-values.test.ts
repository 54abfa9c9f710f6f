// The Relay compiler turns each typed value (`<field>Value`, an enum with UNKNOWN) into a union
// of the enum's values and "%future added value", beside the raw string, so that a client's
// switch is exhaustive today and still compiles when the gateway adds a value.
import { isEnumType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../../src/schema/index.ts';
import { compileWithRelay } from './relay/compile.ts';

/** Artifact → the typed fields it selects and their enums. */
const SELECTED = {
  BatchExportScreen_batchExports: {
    intervalValue: 'BatchExportInterval',
    statusValue: 'BatchExportRunStatus',
  },
  HogFunctionScreen_function: { typeValue: 'HogFunctionType' },
  TypedValuesScreen_backfill: { statusValue: 'BatchExportBackfillStatus' },
  TypedValuesScreen_logLine: { levelValue: 'HogFunctionLogLevel' },
  TypedValuesScreen_export: {
    modelValue: 'BatchExportModel',
    destinationTypeValue: 'BatchExportDestinationType',
  },
  TypedValuesScreen_template: {
    typeValue: 'HogFunctionType',
    statusValue: 'HogFunctionTemplateStatus',
    codeLanguageValue: 'HogFunctionCodeLanguage',
  },
} as const;

describe('typed values compiled by the Relay compiler', () => {
  let artifacts: Map<string, string>;
  beforeAll(() => {
    artifacts = compileWithRelay().artifacts;
  });

  it('generates a union of every enum value, UNKNOWN and "%future added value" for each', () => {
    for (const [artifact, fields] of Object.entries(SELECTED)) {
      const text = artifacts.get(artifact);
      expect(text, artifact).toBeDefined();
      for (const [field, enumName] of Object.entries(fields)) {
        const type = schema.getType(enumName);
        if (!isEnumType(type)) throw new Error(`${enumName} is not an enum`);
        const values = type.getValues().map((v) => JSON.stringify(v.name));
        expect(values).toContain('"UNKNOWN"');
        const union = [...values.sort(), '"%future added value"'].join(' | ');
        expect(text, `${artifact}: ${enumName}`).toContain(`export type ${enumName} = ${union};`);
        expect(text, `${artifact}.${field}`).toMatch(
          new RegExp(`readonly ${field}: ${enumName}( \\| null \\| undefined)?;`),
        );
      }
    }
  });
});
