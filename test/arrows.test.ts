// The arrows of the house (docs/architecture.md: the folders are the diagram), checked on the imports
// of src/: schema reaches the upstream only through the loaders (types aside), the limits plugin
// knows no schema, core/ imports no layer, and the emulator package shares no code with the gateway.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as emulator from 'posthog-emulator';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../src/demo-upstream.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const EMULATOR = fileURLToPath(new URL('../posthog-emulator/src/', import.meta.url));

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

/** Every relative import under `root`, static or dynamic, relative to it. */
function importsOf(root: string): Import[] {
  const found: Import[] = [];
  const pattern =
    /(?:^|\n)\s*(import\s+type\b|import|export)\b[^'";]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
  for (const file of filesUnder(root)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const specifier = match[2] ?? match[3]!;
      found.push({
        from: path.relative(root, file),
        to: path.relative(root, path.resolve(path.dirname(file), specifier)),
        typeOnly: match[1] === 'import type',
      });
    }
  }
  return found;
}

const imports = importsOf(SRC);
const layerOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);
const arrows = (from: (i: Import) => boolean, to: (i: Import) => boolean) =>
  imports.filter((i) => from(i) && to(i)).map((i) => `${i.from} → ${i.to}${i.typeOnly ? ' (type)' : ''}`);
const inLayer = (layer: string) => (i: Import) => layerOf(i.from) === layer;
const toLayer = (layer: string) => (i: Import) => layerOf(i.to) === layer;

/** The leaves: core/ (ids, the caller's key, a bounded cache) and the error codes. */
const isLeaf = (file: string) => layerOf(file) === 'core' || file === 'errors/codes.ts';

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
      for (const other of ['server', 'live', 'observability', 'persisted-operations', 'shared-state'])
        expect(arrows(inLayer(layer), (i) => layerOf(i.to) === other && !i.typeOnly)).toEqual([]);
    expect(arrows(inLayer('loaders'), toLayer('schema'))).toEqual([]);
  });

  it('limits/ imports no schema: the estimator is handed to it', () => {
    expect(arrows(inLayer('limits'), toLayer('schema'))).toEqual([]);
  });

  it('upstream/ imports no layer above it', () => {
    for (const above of [
      'server',
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
        (i) => isLeaf(i.from),
        (i) => !isLeaf(i.to),
      ),
    ).toEqual([]);
  });

  it('the emulator package shares no code with the gateway, and the gateway names it only for the demo', () => {
    expect(
      arrows(
        () => true,
        (i) => i.to.startsWith('..'),
      ),
    ).toEqual([]);
    const emulatorImports = importsOf(EMULATOR);
    expect(emulatorImports.length).toBeGreaterThan(50);
    expect(emulatorImports.filter((i) => i.to.startsWith('..')).map((i) => `${i.from} → ${i.to}`)).toEqual(
      [],
    );
    const naming = filesUnder(SRC).filter((file) =>
      readFileSync(file, 'utf8').includes("'posthog-emulator'"),
    );
    expect(naming.map((file) => path.relative(SRC, file))).toEqual(['demo-upstream.ts']);
  });
});

// The demo's view of the package matches the package (a type check: tsc fails here if they drift).
const demoView: Emulator = emulator;
void demoView;
