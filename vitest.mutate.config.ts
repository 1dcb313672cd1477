import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Used only by Stryker (stryker.config.mjs): the tests that import the mutated modules
 * directly (tests that only run the built CLI never see a mutant). The vitest runner runs
 * them in one worker thread whatever is set here, and stops a mutant at its first failing
 * test, so the fast unit suites go first and the slow end-to-end-ish ones last.
 */
const SLOW_LAST = [
  'test/packs/workspace/path-security.test.ts',
  'test/packs/workspace/file-tools.test.ts',
  'test/packs/records/records-cat.test.ts',
  'test/core/agent/guards-and-gates.test.ts',
  'test/core/agent/endings.test.ts',
  'test/core/agent/run-status.test.ts',
  'test/packs/http/api-client.test.ts',
  'test/agents/fisherman/lost-responses.test.ts',
  'test/agents/fisherman/cleanup.test.ts',
  'test/agents/fisherman/deterministic-tier.test.ts',
  'test/agents/fisherman/model-tier.test.ts',
  // Runs Fisherman against the demo app in-process; its last step runs the built CLI.
  'test/hostile/http-secrets.test.ts',
  // 157 adversarial scenarios (~6 s): the strongest killer, and the slowest, so last.
  'test/truth/truth.test.ts',
];

class FastFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) =>
      SLOW_LAST.findIndex((slow) => file.moduleId.replaceAll('\\', '/').endsWith(slow));
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: [
      // Unit suites written against the mutated modules.
      'test/packs/workspace/path-containment.test.ts',
      'test/packs/records/cat-paths.test.ts',
      'test/core/agent/gates.test.ts',
      'test/core/type-words.test.ts',
      'test/core/type-word-lists.test.ts',
      'test/core/effects-fold.test.ts',
      'test/core/effects.test.ts',
      'test/core/agent/status-rule.test.ts',
      'test/core/agent/reported-failures.test.ts',
      'test/core/agent/claim-matching.test.ts',
      'test/core/agent/claims.test.ts',
      'test/core/agent/claim-verdicts.test.ts',
      'test/core/agent/verify-finish.test.ts',
      'test/agents/fisherman/request-met.test.ts',
      'test/agents/fisherman/request-structure.test.ts',
      'test/agents/fisherman/items-from-creates.test.ts',
      'test/packs/http/http-effects.test.ts',
      'test/packs/http/http1-message.test.ts',
      'test/packs/http/http-effects-more.test.ts',
      'test/packs/http/delete-rule.test.ts',
      'test/packs/http/lost-create-memory.test.ts',
      'test/packs/http/api-client-more.test.ts',
      'test/agents/fisherman/cleanup-confirmation.test.ts',
      'test/agents/fisherman/cleanup-run-record.test.ts',
      'test/core/redact.test.ts',
      'test/core/redaction-rules.test.ts',
      'test/core/redact-url-edges.test.ts',
      'test/hostile/redact-urls.test.ts',
      'test/hostile/redact-protocol-relative.test.ts',
      'test/hostile/redact-prose-pairs.test.ts',
      'test/agents/scout-tool.test.ts',
      'test/core/agent/request-words.test.ts',
      'test/agents/fisherman/contract-problems.test.ts',
      'test/agents/fisherman/parse-fish-contract.test.ts',
      'test/agents/coder/coder-contract.test.ts',
      'test/agents/coder/claims-in-data.test.ts',
      'test/agents/coder/changes-report.test.ts',
      'test/agents/coder/change-list.test.ts',
      'test/core/agent/summary-counts-unit.test.ts',
      'test/core/agent/summary-counts.test.ts',
      'test/core/agent/content-words.test.ts',
      'test/core/agent/contract-unit.test.ts',
      'test/core/agent/contracts.test.ts',
      'test/hooks/command-classifier.test.ts',
      'test/hooks/read-only-command.test.ts',
      'test/hooks/script-checks.test.ts',
      // Suites that exercise them through the tools and the agent loop.
      ...SLOW_LAST,
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests that spawn the built CLI (`tally …` in their name) never see a mutant.
    testNamePattern: /^(?!.*`tally )/,
    pool: 'threads',
    sequence: { sequencer: FastFirst },
    // As in vitest.config.ts: no test writes into the real user's cache or state folders.
    globalSetup: ['test/setup/xdg-global.ts'],
    setupFiles: ['test/setup/xdg-setup.ts'],
  },
});
