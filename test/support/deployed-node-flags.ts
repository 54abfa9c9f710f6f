// The flags node itself is given where the gateway is deployed, read from `npm start` (package.json),
// the one place they are written: the production test, the process test and the bench start node
// with them, so that none of them drifts from what production runs. docs/operating.md says why
// each is there.
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: { start: string };
};

const command = /exec node (.*?)\s*dist\/main\.js/.exec(packageJson.scripts.start);
if (!command) throw new Error(`npm start does not exec node … dist/main.js: ${packageJson.scripts.start}`);

export const DEPLOYED_NODE_FLAGS: readonly string[] = command[1]!.split(/\s+/).filter(Boolean);
