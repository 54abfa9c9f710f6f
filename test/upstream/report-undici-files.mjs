// Preloaded into a gateway process by undici-pool.test.ts: as the process exits, it writes which
// of undici's files were loaded (undici is CommonJS, so every file of it is in require.cache).
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const files = Object.keys(cache)
    .map((path) => /\/node_modules\/undici\/(.*)$/.exec(path)?.[1])
    .filter(Boolean);
  writeSync(2, `undici files: ${JSON.stringify(files)}\n`);
});
