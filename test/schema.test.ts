import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../src/schema/index.ts';

describe('schema.graphql', () => {
  it('is what the builder prints (npm run schema:print)', () => {
    expect(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
  });

  it('serves every item of ../shared/schema-contract.graphql', () => {
    const out = execFileSync('node', ['../shared/tools/check-contract.mjs', 'schema.graphql'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    });
    const [, served, total] = /contract: (\d+) of (\d+) items served/.exec(out) ?? [];
    expect(Number(total)).toBeGreaterThan(150);
    expect(served).toBe(total);
  });

  it('describes every type and field in its own words', () => {
    const sdl = printedSchema();
    const blocks = sdl.split('\n\n').filter((b) => /^(type|interface|input|scalar) /m.test(b));
    for (const block of blocks) {
      const lines = block.split('\n');
      const header = lines.findIndex((l) => /^(type|interface|input|scalar) /.test(l));
      expect(lines[header - 1], `${lines[header]} has a description`).toMatch(/"""$/);
    }
  });
});
