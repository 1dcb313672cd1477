import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: (process.env.NARROW_TESTS ?? '').split(','),
    testTimeout: 60_000,
    testNamePattern: /^(?!.*`tally )/,
    pool: 'threads',
  },
});
