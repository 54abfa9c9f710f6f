import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: [
      // graphql 16 ships CJS and ESM builds without an exports map: Node gives Pothos and yoga the
      // CJS one, so the tests must load that one too, or graphql sees two realms.
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      // The emulator's sources, as `node --conditions=source` resolves the package.
      {
        find: /^posthog-emulator$/,
        replacement: fileURLToPath(new URL('./posthog-emulator/src/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    // Each file starts its own servers on port 0; files may run in parallel.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The tiers (docs/architecture.md): `npm run test:quick` runs quick and emulator, `npm test` all.
    projects: [
      {
        extends: true,
        test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: ['test/system/**'] },
      },
      { extends: true, test: { name: 'emulator', include: ['posthog-emulator/test/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'system', include: ['test/system/**/*.test.ts'] },
      },
    ],
  },
});
