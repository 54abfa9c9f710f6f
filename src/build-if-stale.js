// `npm start` runs compiled JavaScript only. Before it does, this builds dist/ when dist/ is
// missing or older than the sources (a fresh clone, an edited checkout) and the TypeScript
// compiler is installed. A production install (dev dependencies pruned) has no compiler: there
// dist/ must have been built beforehand, as the README's deploy section does. Plain JavaScript,
// so that it runs with no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = `${root}dist/main.js`;

/** The newest modification time among the sources and the build settings. */
function newestSource() {
  const inputs = [`${root}tsconfig.json`, `${root}tsconfig.build.json`];
  for (const file of readdirSync(`${root}src`, { recursive: true })) {
    if (String(file).endsWith('.ts')) inputs.push(`${root}src/${file}`);
  }
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs));
}

const built = existsSync(entry) ? statSync(entry).mtimeMs : null;
if (built !== null && built >= newestSource()) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (built !== null) {
    console.warn(
      'gateway: dist/ is older than src/, and TypeScript is not installed to rebuild it; starting it as it is.',
    );
    process.exit(0);
  }
  console.error('gateway: dist/ is missing. Build it with `npm run build` (needs the dev dependencies).');
  process.exit(1);
}
console.log(built === null ? 'gateway: building dist/ …' : 'gateway: src/ changed; rebuilding dist/ …');
rmSync(`${root}dist`, { recursive: true, force: true });
const build = spawnSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
process.exit(build.status ?? 1);
