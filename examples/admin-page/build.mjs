// Builds the page into dist/: one bundle (esbuild, minified, with a source map) and index.html.
// The bundle holds the page's code and libraries only: no key, no gateway URL (both are typed in
// at sign-in). `node build.mjs`, after `npm ci` in this folder.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const here = (path) => new URL(path, import.meta.url).pathname;

rmSync(here('dist'), { recursive: true, force: true });
mkdirSync(here('dist'));
await build({
  entryPoints: [here('src/main.tsx')],
  outfile: here('dist/app.js'),
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari17'],
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
copyFileSync(here('index.html'), here('dist/index.html'));
