import { defineConfig } from 'vitest/config';

/**
 * For mutating ONE module against the few suites that import it (the machine's cores are
 * shared): `MUTATE_TESTS=a.test.ts,b.test.ts npx stryker run stryker.mutate-one.config.mjs
 * --mutate src/x.ts`. The full `vitest.mutate.config.ts` can only kill more.
 */
const files = (process.env.MUTATE_TESTS ?? '').split(',').filter(Boolean);
if (files.length === 0) throw new Error('Set MUTATE_TESTS to the comma-separated test files to run.');

export default defineConfig({
  test: {
    include: files,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    testNamePattern: /^(?!.*`tally )/,
    pool: 'threads',
    globalSetup: ['test/setup/xdg-global.ts'],
    setupFiles: ['test/setup/xdg-setup.ts'],
  },
});
