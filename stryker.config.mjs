// Mutation testing for Tally's verification and security modules: `npm run mutate`.
// Tests import the .ts sources directly through vitest, so no TypeScript checker is needed;
// tests that run the built CLI (bin/tally.js → dist/) never see a mutant and only cost time.

/** Stable modules mutated now. */
const MUTATE_NOW = [
  'src/packs/workspace/project-root.ts', // path containment: isInside, resolve, resolveEntry
  'src/packs/records/cat-records.ts', // the --cat membership check
  'src/core/agent/gate-keeper.ts', // gates
  // Verification: the effect model, claim matching, the status rule, Fisherman's request check.
  'src/core/effects.ts', // net effects fold
  'src/core/agent/claims.ts', // claim → resource matching, dropped reasons, duplicates
  'src/core/agent/verify-finish.ts', // claim entries, items from the ledger
  'src/core/agent/run-status.ts', // unrecovered failures, intents, reported failures
  'src/core/type-words.ts', // singular/plural/head-noun type matching
  'src/agents/fisherman/request-met.ts', // counts, parent links, scope
  'src/agents/fisherman/fisherman-verifier.ts', // creates only; items from creates
  'src/agents/fisherman/cleanup-run.ts', // cleanup's confirmation rule
  'src/packs/http/client/api-client.ts', // origin lock, whole-URL DELETE rule, lost-create memory
  'src/packs/http/tools/http-effects.ts', // what an HTTP exchange did to which resource
  // The lean HTTP/1.1 client's halves (issue 22): response framing and header reading, request bytes.
  'src/packs/http/client/http1-response-parser.ts', // framing: lengths, chunks, caps, what node:http refuses
  'src/packs/http/client/http1-request-head.ts', // header injection refused; node:http's request bytes
  'src/core/redact.ts', // secret names, known secret values, `apiKeyId`-style names not secret
  'src/agents/scout/scout-tool.ts', // a sub-run's GOVERNS come back only with the reads behind them
  // Request contracts: the words a contract must account for, and the checks on what was asked.
  'src/core/agent/contract.ts', // contract cross-check, contract problems fail closed
  'src/core/agent/request-words.ts', // the words of a request a contract must account for
  'src/core/agent/summary-counts.ts', // summary counts above distinct resources
  'src/core/agent/content-words.ts', // content named in words → contains
  'src/agents/coder/changes-report.ts', // the Coder's changes by content: before vs after bytes
  'src/agents/coder/change-list.ts', // the reply's Changes list, checked both ways
  'src/agents/coder/coder-contract.ts', // the Coder's contract read from the request, checked on files
  'src/agents/fisherman/contract-problems.ts', // Fisherman's contract check: counts, parents, names
  // The Claude Code gates' classifier (issue 19, item 2): what counts as read-only.
  'src/surfaces/claude-code/classify-tool-call.ts', // tool-name trust bound to mcp__tally__
  'src/surfaces/claude-code/read-only-command.ts', // the command allow-list
  'src/surfaces/claude-code/command-options.ts', // option allow-lists: prefix expansion, short clusters
  'src/surfaces/claude-code/shell-words.ts', // the accepted shell grammar
  'src/surfaces/claude-code/script-checks.ts', // sed scripts, awk programs, find expressions
  'src/surfaces/claude-code/git-command.ts', // git subcommands and their options
];

/**
 * To add once stable (several engineers are editing it): move an entry into MUTATE_NOW and
 * add its tests to vitest.mutate.config.ts.
 */
const MUTATE_LATER = [];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [...MUTATE_NOW, ...MUTATE_LATER],
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 95, low: 85, break: 85 },
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['coverage', 'reports', 'bench/.out', '.tally'],
};
