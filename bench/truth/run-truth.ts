// `npm run bench:truth`: every scenario of the adversarial truth suite, outside vitest.
// Prints per-group counts, the failing scenarios, and the one figure line of issue 8; exits 1
// when any false success, missing ending or lost true success remains.
//   node --import tsx bench/truth/run-truth.ts [group-or-name-filter] [--verbose]
import {
  explain,
  figureLine,
  GROUPS,
  runScenario,
  type ScenarioResult,
  tallyResults,
} from '../../test/truth/scenario.js';
import { allScenarios } from '../../test/truth/scenarios/index.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const filter = args.find((arg) => !arg.startsWith('--'));
const scenarios = allScenarios.filter(
  (scenario) => !filter || scenario.group.startsWith(filter) || scenario.name.includes(filter),
);

const started = performance.now();
const results: ScenarioResult[] = [];
for (const scenario of scenarios) {
  const result = await runScenario(scenario);
  results.push(result);
  if (verbose)
    process.stdout.write(
      `${result.problems.length ? 'FAIL' : 'ok  '} ${result.ms}ms ${scenario.group} / ${scenario.name}\n`,
    );
}

process.stdout.write('\nper group:\n');
for (const group of GROUPS) {
  const mine = results.filter((result) => result.scenario.group === group);
  if (mine.length === 0) continue;
  const tally = tallyResults(mine);
  const honest = mine.filter((result) => result.outcome.truth).length;
  process.stdout.write(
    `  ${group.padEnd(24)} ${String(mine.length).padStart(3)} scenarios (${honest} true reports), false successes ${tally.falseSuccesses}, missing endings ${tally.missingEndings}, true successes lost ${tally.trueSuccessesLost}\n`,
  );
}

const failing = results.filter((result) => result.problems.length > 0);
if (failing.length > 0) {
  process.stdout.write(`\nfailing scenarios (${failing.length}):\n`);
  for (const result of failing) process.stdout.write(`- ${explain(result)}\n`);
}

const tally = tallyResults(results);
process.stdout.write(`\n(${Math.round(performance.now() - started)} ms)\n${figureLine(tally)}\n`);
process.exitCode = tally.falseSuccesses + tally.missingEndings + tally.trueSuccessesLost > 0 ? 1 : 0;
// Runs abandoned by a watchdog may leave promises that never settle; they hold no handles.
