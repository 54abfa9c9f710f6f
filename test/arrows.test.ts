// The arrows of the house (README's "The code": the folders are the diagram), checked on the imports of
// src/: schema reaches the upstream only through the loaders (types aside), the limits plugin
// knows no schema, the leaf modules import no layer, and the reference upstream shares no code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

interface Import {
  /** The importing file, relative to src/. */
  from: string;
  /** The imported file, relative to src/. */
  to: string;
  typeOnly: boolean;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import of src/, static or dynamic. */
function importsOfSrc(): Import[] {
  const found: Import[] = [];
  const pattern =
    /(?:^|\n)\s*(import\s+type\b|import|export)\b[^'";]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
  for (const file of filesUnder(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const specifier = match[2] ?? match[3]!;
      found.push({
        from: path.relative(SRC, file),
        to: path.relative(SRC, path.resolve(path.dirname(file), specifier)),
        typeOnly: match[1] === 'import type',
      });
    }
  }
  return found;
}

const imports = importsOfSrc();
const layerOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);
const arrows = (from: (i: Import) => boolean, to: (i: Import) => boolean) =>
  imports.filter((i) => from(i) && to(i)).map((i) => `${i.from} → ${i.to}${i.typeOnly ? ' (type)' : ''}`);
const inLayer = (layer: string) => (i: Import) => layerOf(i.from) === layer;
const toLayer = (layer: string) => (i: Import) => layerOf(i.to) === layer;

const LEAVES = ['errors/codes.ts', 'ids.ts', 'caller-key.ts', 'maybe-promise.ts'];

describe('the arrows between layers', () => {
  it('finds the imports it checks', () => {
    // A scanner that matched nothing would pass every rule below.
    expect(imports.length).toBeGreaterThan(100);
    expect(arrows(inLayer('loaders'), toLayer('upstream')).length).toBeGreaterThan(10);
  });

  it('schema/ imports from upstream/ only types, and never the client', () => {
    expect(arrows(inLayer('schema'), (i) => layerOf(i.to) === 'upstream' && !i.typeOnly)).toEqual([]);
    expect(arrows(inLayer('schema'), (i) => i.to === 'upstream/client.ts')).toEqual([]);
  });

  it('schema/ and loaders/ know nothing of transports, live work or observability', () => {
    for (const layer of ['schema', 'loaders'])
      for (const other of ['live', 'observability', 'persisted-operations', 'shared-state'])
        expect(arrows(inLayer(layer), (i) => layerOf(i.to) === other && !i.typeOnly)).toEqual([]);
    expect(arrows(inLayer('loaders'), toLayer('schema'))).toEqual([]);
  });

  it('limits/ imports no schema: the estimator is handed to it', () => {
    expect(arrows(inLayer('limits'), toLayer('schema'))).toEqual([]);
  });

  it('upstream/ imports no layer above it', () => {
    for (const above of [
      'schema',
      'loaders',
      'live',
      'limits',
      'observability',
      'persisted-operations',
      'shared-state',
    ])
      expect(arrows(inLayer('upstream'), toLayer(above))).toEqual([]);
  });

  it('shared-state/ is Redis beside the pipeline: it serves live work and the upstream by their types', () => {
    expect(arrows(inLayer('shared-state'), (i) => ['schema', 'loaders'].includes(layerOf(i.to)))).toEqual([]);
    expect(
      arrows(inLayer('shared-state'), (i) => ['live', 'upstream'].includes(layerOf(i.to)) && !i.typeOnly),
    ).toEqual([]);
  });

  it('the leaf modules import no layer (only each other)', () => {
    expect(
      arrows(
        (i) => LEAVES.includes(i.from),
        (i) => !LEAVES.includes(i.to),
      ),
    ).toEqual([]);
  });

  it('the reference upstream shares no code with the gateway, and the gateway imports it only lazily', () => {
    expect(arrows(inLayer('reference-upstream'), (i) => layerOf(i.to) !== 'reference-upstream')).toEqual([]);
    const importers = imports.filter(
      (i) => layerOf(i.to) === 'reference-upstream' && layerOf(i.from) !== 'reference-upstream',
    );
    expect(importers.map((i) => i.from)).toEqual(['main.ts']);
  });
});
