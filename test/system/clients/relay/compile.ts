// Runs the Relay compiler (its binary ships in the relay-compiler package) over the operations of
// test/system/clients/relay/ in a scratch project, against schema.graphql. Plain: each generated
// operation's text by name. Persisted (persistConfig): the compiler writes the manifest
// `{"<hash>": "<text>"}` and each artifact carries only the operation's id.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

export interface RelayOutput {
  /** Operation name → its text (plain) or its persisted id (persisted). */
  operations: Map<string, string>;
  /** The manifest's JSON, as the compiler wrote it (persisted only). */
  manifest: string | null;
  /** Each artifact's TypeScript (operations and fragments), by its name. */
  artifacts: Map<string, string>;
}

export function compileWithRelay(options: { persist?: 'MD5' | 'SHA256' } = {}): RelayOutput {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-relay-'));
  try {
    cpSync(join(ROOT, 'test/system/clients/relay'), join(dir, 'src'), {
      recursive: true,
      filter: (source) => !source.endsWith('compile.ts'),
    });
    cpSync(join(ROOT, 'schema.graphql'), join(dir, 'schema.graphql'));
    mkdirSync(join(dir, '__generated__'));
    // The compiler adds to the manifest file, which must exist.
    if (options.persist) writeFileSync(join(dir, 'persisted.json'), '{}');
    writeFileSync(
      join(dir, 'relay.config.json'),
      JSON.stringify({
        src: './src',
        schema: './schema.graphql',
        language: 'typescript',
        artifactDirectory: './__generated__',
        ...(options.persist
          ? { persistConfig: { file: './persisted.json', algorithm: options.persist } }
          : {}),
      }),
    );
    execFileSync(join(ROOT, 'node_modules/.bin/relay-compiler'), [], { cwd: dir, stdio: 'pipe' });
    const field = options.persist ? 'id' : 'text';
    const operations = new Map<string, string>();
    const artifacts = new Map<string, string>();
    for (const file of readdirSync(join(dir, '__generated__'))) {
      const artifact = readFileSync(join(dir, '__generated__', file), 'utf8');
      artifacts.set(file.replace(/\.graphql\.ts$/, ''), artifact);
      const value = new RegExp(`^\\s*"${field}": (".*"),?$`, 'm').exec(artifact)?.[1];
      if (value) operations.set(file.replace(/\.graphql\.ts$/, ''), JSON.parse(value));
    }
    const manifest = options.persist ? readFileSync(join(dir, 'persisted.json'), 'utf8') : null;
    return { operations, manifest, artifacts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
