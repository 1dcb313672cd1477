import { describe, expect, it } from 'vitest';
import { reportedChecks } from '../../../src/agents/coder/unrun-checks.js';

describe('a test, build or lint run reported in a Coder text (no Coder tool runs one)', () => {
  it.each([
    'All tests pass.',
    'Created src/a.ts. All 12 tests pass now.',
    'The test suite passes.',
    'Tests are passing',
    'The build succeeds and lint is clean.',
    'I ran the tests and everything is green.',
    "I've run npm test: 0 failures.",
    'I executed the full test suite.',
    'It compiles cleanly.',
    'The project builds successfully.',
    'Verified by running the tests.',
    'CI is green.',
    'tsc reports no errors.',
    'All unit tests passed (42/42).',
    'All tests pass, so you can merge it.',
    "I ran the tests; they pass, and you can ship once you're happy.",
    "I couldn't find a changelog, but the build succeeds.",
    'No problem: I ran npm test and it is green.',
  ])('"%s" reports a run', (text) => {
    expect(reportedChecks(text)).toHaveLength(1);
  });

  it.each([
    'The tests should pass now.',
    'Run `npm test` to check that all tests pass.',
    'I did not run the tests.',
    "I haven't run the build.",
    'Once the tests pass, merge it.',
    'Make sure the build succeeds before you release.',
    'Do the tests pass?',
    'The tests pass a mock client to the handler.',
    'I ran into a problem with the test helper, so I kept it.',
    'I added tests for the parser in src/parse.test.ts.',
    'The new test checks that the parser rejects empty input.',
    'Next step: run the tests.',
    'You can run the build with npm run build.',
    'These tests will fail until the API exists.',
    '```\n$ npm test\nAll tests pass.\n```',
    'Updated the test so it passes the new flag.',
    'If the build succeeds, the tests pass.',
    'When you run it, the build succeeds.',
    'All tests pass, I think.',
    'I did not, in the end, run the tests.',
    'The tests, I expect, pass.',
  ])('"%s" reports none', (text) => {
    expect(reportedChecks(text)).toEqual([]);
  });

  it('names each reporting sentence once', () => {
    expect(reportedChecks('Changed src/a.ts. All tests pass. All tests pass.\nThe build succeeds.')).toEqual([
      'All tests pass.',
      'The build succeeds.',
    ]);
  });
});
