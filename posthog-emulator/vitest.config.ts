import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own emulator on port 0; files may run in parallel.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
