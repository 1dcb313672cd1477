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
    // Labels and verdicts, counts, "no failures", subjectless and passive runs.
    'Tests: 12 passed, 0 failed.',
    'Build: \u2705',
    '\u2705 Build',
    'Tests \u2713',
    'vitest: 10 passed',
    '12/12 tests passing.',
    'Ran npm test \u2014 42 passing.',
    'Ran the tests: all pass.',
    'Tests were run and pass.',
    'There are no failing tests.',
    'Zero test failures.',
    'The typecheck is clean.',
    'tsc is happy.',
    'ESLint reports no problems.',
    '`npm test` passes.',
    'Tested locally.',
    'I tested it and it works.',
    'Tous les tests passent.',
    'Todos los tests pasan.',
    'Alle Tests bestehen.',
    // A denial holds its own clause: a run coordinated after it is reported.
    "I didn't change src/a.ts and ran the tests.",
    'I did not touch src/a.ts, ran npm test.',
    'I did not touch the config and all tests pass.',
    // The same after the other languages' contrasts.
    "Je n'ai pas touché src/a.ts mais tous les tests passent.",
    'Ich habe nicht viel geändert aber die Tests bestehen.',
    'Nunca toqué la API pero los tests pasan.',
    // A check mark or an emoji after the verdict; a bare "compiles"; a JUnit-style tally.
    'All tests pass \u2705',
    'All tests pass \u{1F389}',
    'The build succeeds \u{1F680}',
    'The code compiles.',
    'It compiles now.',
    'Tests run: 12, Failures: 0',
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
    'I added 3 passing tests for the parser.',
    'Tests: I added two cases to src/a.test.ts.',
    'Build: run npm run build to produce dist/.',
    'Tests: not run (no tool for it).',
    'No tests were run.',
    'There are no tests yet.',
    '\u2705 Added tests for the parser',
    'vitest: 3 new tests added',
    'The test file is clean and readable.',
    'I tested the parser logic by reading src/parse.ts.',
    'I tested it in the browser: the console shows no errors.',
    'Les tests ne passent pas.',
    'Die Tests bestehen nicht.',
    'Tests \u2713 (I did not run them)',
    "I can't confirm the tests pass and the build succeeds.",
    "I don't know whether the tests pass and the build succeeds.",
    "I didn't run the tests and didn't build.",
    'I did not run lint or the tests.',
    'The function compiles the regex once.',
    'It builds the index at startup.',
    'Make sure everything compiles.',
    'Tests run: none (no tool for it)',
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
