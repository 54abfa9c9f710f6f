// The public schema's overviews name every Node type registered (global-id.ts's registry): the
// Node interface and `node` by typename, Query in words, and Mutation in words each type that a
// mutation is named after.
import { isInterfaceType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { nodeTypenames } from '../src/schema/global-id.ts';
import { schema } from '../src/schema/index.ts';

/** `BatchExportRun` as prose: `batch export run`. */
const words = (typename: string) => typename.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();

describe('schema descriptions', () => {
  const typenames = nodeTypenames();

  it('registers every type that implements Node', () => {
    const node = schema.getType('Node');
    if (!isInterfaceType(node)) throw new Error('no Node interface');
    const implementations = schema.getImplementations(node).objects.map((type) => type.name);
    expect([...typenames].sort()).toEqual([...implementations].sort());
  });

  it('names every Node type in the Node interface and in node', () => {
    const nodeField = schema.getQueryType()!.getFields().node!;
    for (const typename of typenames) {
      expect(schema.getType('Node')!.description).toContain(typename);
      expect(nodeField.description).toContain(typename);
    }
  });

  it('names every Node type in Query, and those mutations write in Mutation', () => {
    const mutations = Object.keys(schema.getMutationType()!.getFields());
    for (const typename of typenames) {
      expect(schema.getQueryType()!.description).toContain(words(typename));
      if (mutations.some((name) => name.includes(typename)))
        expect(schema.getMutationType()!.description, typename).toContain(words(typename));
    }
  });
});
