// `npm start` runs compiled JavaScript only. Before it does, this builds the gateway (dist/) and the
// demo's emulator (posthog-emulator/dist/) when either is missing or older than its sources (a
// fresh clone, an edited checkout) and the TypeScript compiler is installed. A production install
// (dev dependencies pruned) has no compiler: there dist/ must have been built beforehand, as the
// README's deploy section does. Plain JavaScript, so that it runs with no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILDS = [
  { name: 'gateway', dir: root, entry: 'dist/main.js' },
  { name: 'posthog-emulator', dir: `${root}posthog-emulator/`, entry: 'dist/index.js' },
];

/** The newest modification time among a package's sources and build settings. */
function newestSource(dir) {
  const inputs = [`${dir}tsconfig.json`, `${dir}tsconfig.build.json`];
  for (const file of readdirSync(`${dir}src`, { recursive: true })) {
    if (String(file).endsWith('.ts')) inputs.push(`${dir}src/${file}`);
  }
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs));
}

/** Builds one package if it is stale; exits the process when it cannot. */
function buildIfStale({ name, dir, entry }) {
  if (!existsSync(`${dir}src`)) return; // a production install without the emulator
  const built = existsSync(`${dir}${entry}`) ? statSync(`${dir}${entry}`).mtimeMs : null;
  if (built !== null && built >= newestSource(dir)) return;
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    if (built !== null) {
      console.warn(
        `${name}: dist/ is older than src/, and TypeScript is not installed to rebuild it; starting it as it is.`,
      );
      return;
    }
    console.error(`${name}: dist/ is missing. Build it with \`npm run build\` (needs the dev dependencies).`);
    process.exit(1);
  }
  console.log(built === null ? `${name}: building dist/ …` : `${name}: src/ changed; rebuilding dist/ …`);
  rmSync(`${dir}dist`, { recursive: true, force: true });
  const build = spawnSync(process.execPath, [tsc, '-p', `${dir}tsconfig.build.json`], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

for (const build of BUILDS) buildIfStale(build);
