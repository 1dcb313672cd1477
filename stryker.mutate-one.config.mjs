// One module at a time (see vitest.mutate-one.config.ts): `--mutate` names it. Static
// mutants (module-level allow-lists, regex tables) are skipped as in the gates' first pass:
// the vitest runner does not reload modules between mutants, so each costs a full re-run.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutate-one.config.ts' },
  ignoreStatic: true,
  incremental: false,
  reporters: ['clear-text', 'json', 'progress-append-only'],
  jsonReporter: { fileName: `reports/mutation/one-${process.pid}.json` },
  thresholds: { high: 95, low: 90, break: null },
};
