import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and ESM builds without an exports map: Node gives Pothos and yoga the
    // CJS one, so the tests must load that one too, or graphql sees two realms.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own servers on port 0; files may run in parallel.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
